import { useTranslation } from "react-i18next";

import { DEFAULT_LOCALE, isLocale, type Locale } from "./language";

/** The language the site is shown in (es, pt or en). */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}
