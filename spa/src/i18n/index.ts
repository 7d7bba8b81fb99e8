import i18n from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";

import { chosenLanguage, DEFAULT_LOCALE, LOCALES, skinLanguage, storedLanguage, type SkinLanguages } from "./language";
import { defaultNS, resources } from "./resources";

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = lng;
});

// The shell's namespaces are bundled, so initialisation finishes synchronously before the
// first render; the screens' namespaces come with them, one small JSON chunk per language
// (a screen using one suspends until it arrives: the layout shows its loader meanwhile).
const onDemand = import.meta.glob<{ default: object }>([
  "../locales/*/*.json",
  "!../locales/*/{common,shell}.json",
]);

void i18n
  .use(initReactI18next)
  .use(
    resourcesToBackend(async (lng: string, ns: string) => {
      const load = onDemand[`../locales/${lng}/${ns}.json`];
      if (!load) throw new Error(`no translations for ${lng}/${ns}`);
      return (await load()).default;
    }),
  )
  .init({
  resources,
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  defaultNS,
  ns: Object.keys(resources.es),
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes.
});


/**
 * Once the skin is known: its default language when the visitor chose none, or chose one the skin
 * does not offer (the stored choice stays, for a skin that offers it).
 */
export async function applySkinLanguage(skin: SkinLanguages): Promise<void> {
  const language = skinLanguage(chosenLanguage(), skin);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

export default i18n;
