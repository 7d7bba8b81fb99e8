import { describe, expect, it } from "vitest";

import { rememberLanguage, storedLanguage } from "./language";

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
