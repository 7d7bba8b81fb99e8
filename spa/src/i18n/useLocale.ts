import { useTranslation } from "react-i18next";

import { DEFAULT_LOCALE, isLocale, type Locale } from "./language";

/** The site's language (es, pt or en) for i18next's current language. */
export function localeOf(language: string): Locale {
  return isLocale(language) ? language : DEFAULT_LOCALE;
}

/** The language the site is shown in (es, pt or en). */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return localeOf(i18n.language);
}
