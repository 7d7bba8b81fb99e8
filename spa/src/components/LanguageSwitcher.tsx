import { useTranslation } from "react-i18next";

import { LOCALES, setLanguage, type Locale } from "../i18n/language";

interface LanguageSwitcherProps {
  /** The languages the skin offers; all of them by default. */
  locales?: readonly Locale[];
}

export function LanguageSwitcher({ locales = LOCALES }: LanguageSwitcherProps) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage;

  return (
    <div className="language-switcher" role="group" aria-label={t("language.label")}>
      {locales.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          className="language-switcher__option"
          aria-pressed={current === lng}
          onClick={() => {
            if (lng !== current) setLanguage(lng);
          }}
        >
          {t(`language.${lng}`)}
        </button>
      ))}
    </div>
  );
}
