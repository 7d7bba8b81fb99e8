import { describe, expect, it } from "vitest";

import { skinConfig } from "../../test/bff";
import { operatorLine } from "./operatorLine";

const perLanguage = {
  ...skinConfig.skin.branding,
  operatorLine: "Operado por Aurora",
  operatorLines: { es: "Operado por Aurora", en: "Operated by Aurora" },
};

describe("operatorLine", () => {
  it("is the skin's line in the site's language", () => {
    expect(operatorLine(perLanguage, "es")).toBe("Operado por Aurora");
    expect(operatorLine(perLanguage, "en")).toBe("Operated by Aurora");
  });

  it("falls back to the skin's one line (its default language's)", () => {
    expect(operatorLine(perLanguage, "pt")).toBe("Operado por Aurora");
  });

  it("is the one text of a skin that has one for every language", () => {
    expect(operatorLine(skinConfig.skin.branding, "pt")).toBe("Operated by Sandbox Gaming Ltd.");
  });
});
