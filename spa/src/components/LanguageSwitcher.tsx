import { useTranslation } from "react-i18next";

import { LOCALES, setLanguage, type Locale } from "../i18n/language";

interface LanguageSwitcherProps {
  /** The languages the skin offers; all of them by default. */
  locales?: readonly Locale[];
}

/** Spanish, Portuguese, English: choosing one stores it and reloads the page. */
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
          data-testid={`language-${lng}`}
          aria-pressed={current === lng}
          title={t(`language.${lng}`)}
          onClick={() => {
            if (lng !== current) setLanguage(lng);
          }}
        >
          <span aria-hidden="true">{lng.toUpperCase()}</span>
          <span className="visually-hidden">{t(`language.${lng}`)}</span>
        </button>
      ))}
    </div>
  );
}
