import { useTranslation } from "react-i18next";

import { LOCALES, setLanguage, type Locale } from "../i18n/language";

interface LanguageSwitcherProps {
  /** The languages the skin offers; all of them by default. */
  locales?: readonly Locale[];
  /** Test ids are `<prefix>-<language>`. */
  testIdPrefix?: string;
}

/** Spanish, Portuguese, English: choosing one stores it and reloads the page. The header shows
 * the codes, the side menu the names (styles). */
export function LanguageSwitcher({ locales = LOCALES, testIdPrefix = "language" }: LanguageSwitcherProps) {
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
          data-testid={`${testIdPrefix}-${lng}`}
          aria-pressed={current === lng}
          title={t(`language.${lng}`)}
          onClick={() => {
            if (lng !== current) setLanguage(lng);
          }}
        >
          <span className="language-switcher__code" aria-hidden="true">
            {lng.toUpperCase()}
          </span>
          <span className="language-switcher__name visually-hidden">{t(`language.${lng}`)}</span>
        </button>
      ))}
    </div>
  );
}
