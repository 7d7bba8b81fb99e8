import i18n from "i18next";
import { initReactI18next } from "react-i18next";

import { DEFAULT_LOCALE, defaultNS, LOCALES, namespaces, resources, type Locale } from "./resources";

// The language is the operator's choice on this browser; nothing about them is stored with it.
const STORAGE_KEY = "console-locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function storedLocale(storage: Storage = localStorage): Locale {
  const stored = storage.getItem(STORAGE_KEY);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

/** Switches the console's language at once (no reload: no answer of the API depends on it). */
export function chooseLocale(lng: Locale, storage: Storage = localStorage): void {
  storage.setItem(STORAGE_KEY, lng);
  void i18n.changeLanguage(lng);
}

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = lng;
  document.title = i18n.t("common:title");
});

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  defaultNS,
  ns: namespaces,
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes.
});

export default i18n;
