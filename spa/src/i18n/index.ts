import i18n from "i18next";
import { initReactI18next } from "react-i18next";

import { DEFAULT_LOCALE, LOCALES, storedLanguage } from "./language";
import { defaultNS, namespaces, resources } from "./resources";

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = lng;
});

// Resources are bundled, so initialisation finishes synchronously before the first render.
void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  defaultNS,
  ns: [...namespaces],
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes.
});

export default i18n;
