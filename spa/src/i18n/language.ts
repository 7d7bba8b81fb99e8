import { DEFAULT_LOCALE, LOCALES, type Locale } from "../api/locales.gen";

// The languages come from contracts/locales.py (`python -m contracts export`).
export { DEFAULT_LOCALE, LOCALES, type Locale };

// Browser-storage keys from the spec: `locale` for the site, `localS` for banner content.
const STORAGE_KEYS = ["locale", "localS"] as const;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The language the visitor chose earlier, if any. */
export function chosenLanguage(storage: Storage = localStorage): Locale | null {
  const stored = storage.getItem("locale");
  return isLocale(stored) ? stored : null;
}

/** The language the visitor chose earlier, or the default. */
export function storedLanguage(storage: Storage = localStorage): Locale {
  return chosenLanguage(storage) ?? DEFAULT_LOCALE;
}

/** What a skin says about languages (`defaultLocale`, `locales` of /bff/config). */
export interface SkinLanguages {
  defaultLocale: Locale;
  locales: readonly Locale[];
}

/** The site's language on a skin: the visitor's choice when the skin offers it, else the skin's default. */
export function skinLanguage(chosen: Locale | null, skin: SkinLanguages): Locale {
  return chosen !== null && skin.locales.includes(chosen) ? chosen : skin.defaultLocale;
}

export function rememberLanguage(lng: Locale, storage: Storage = localStorage): void {
  for (const key of STORAGE_KEYS) storage.setItem(key, lng);
}

/** Stores the choice and reloads, so every screen and cached response starts in the new language. */
export function setLanguage(lng: Locale): void {
  rememberLanguage(lng);
  window.location.reload();
}
