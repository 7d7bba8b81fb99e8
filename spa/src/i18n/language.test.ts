import { describe, expect, it } from "vitest";

import { chosenLanguage, rememberLanguage, skinLanguage, storedLanguage } from "./language";

describe("language storage", () => {
  it("defaults to Spanish", () => {
    expect(storedLanguage()).toBe("es");
  });

  it("ignores a stored value that is not a supported language", () => {
    localStorage.setItem("locale", "fr");
    expect(storedLanguage()).toBe("es");
  });

  it("remembers the choice under locale and localS", () => {
    rememberLanguage("pt");
    expect(localStorage.getItem("locale")).toBe("pt");
    expect(localStorage.getItem("localS")).toBe("pt");
    expect(storedLanguage()).toBe("pt");
  });
});

describe("the skin's languages", () => {
  const english = { defaultLocale: "en", locales: ["en", "pt"] } as const;

  it("greets a first visitor in the skin's default", () => {
    expect(chosenLanguage()).toBeNull();
    expect(skinLanguage(chosenLanguage(), english)).toBe("en");
  });

  it("keeps a stored choice the skin offers", () => {
    rememberLanguage("pt");
    expect(skinLanguage(chosenLanguage(), english)).toBe("pt");
  });

  it("falls back to the skin's default for a stored language it does not offer", () => {
    rememberLanguage("es");
    expect(skinLanguage(chosenLanguage(), english)).toBe("en");
    expect(skinLanguage("es", { defaultLocale: "es", locales: ["es", "pt", "en"] })).toBe("es");
  });
});
