import { describe, expect, it } from "vitest";

import { skinConfig } from "../../test/bff";
import { applyBranding } from "./applyBranding";

describe("applyBranding", () => {
  it("sets the skin colours as CSS custom properties on <html>", () => {
    applyBranding({ ...skinConfig.skin.branding, primary: "#00ff99", background: "#101010" });

    const style = document.documentElement.style;
    expect(style.getPropertyValue("--color-primary")).toBe("#00ff99");
    expect(style.getPropertyValue("--color-accent")).toBe("#e23d5b");
    expect(style.getPropertyValue("--color-bg")).toBe("#101010");
    expect(style.getPropertyValue("--color-surface")).toBe("#171a2b");
    expect(style.getPropertyValue("--color-text")).toBe("#f3f4f8");
  });

  it("gives phones and tablets (990px and less) a browser bar in the skin's header colour", () => {
    applyBranding({ ...skinConfig.skin.branding, surface: "#0f252b" });
    applyBranding({ ...skinConfig.skin.branding, surface: "#13241f" });

    const themes = document.head.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]');
    expect(themes).toHaveLength(1);
    expect(themes[0]!.getAttribute("media")).toBe("(max-width: 990px)");
    expect(themes[0]!.content).toBe("#13241f");
  });

  it("paints the element it is given", () => {
    const element = document.createElement("div");
    applyBranding({ ...skinConfig.skin.branding, accent: "#123456" }, element);
    expect(element.style.getPropertyValue("--color-accent")).toBe("#123456");
  });
});
