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

  it("paints the element it is given", () => {
    const element = document.createElement("div");
    applyBranding({ ...skinConfig.skin.branding, accent: "#123456" }, element);
    expect(element.style.getPropertyValue("--color-accent")).toBe("#123456");
  });
});
