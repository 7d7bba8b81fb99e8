import { useTranslation } from "react-i18next";

import { LOCALES, setLanguage, type Locale } from "../i18n/language";

interface LanguageSwitcherProps {
  /** The languages the skin offers; undefined until /bff/config has answered. */
  locales: readonly Locale[] | undefined;
  /** Test ids are `<prefix>-<language>`. */
  testIdPrefix?: string;
}

/** The skin's languages (of Spanish, Portuguese, English): choosing one stores it and reloads the
 * page. The header shows the codes, the side menu the names (styles). Until the skin is known its
 * room is kept, unseen, so the header does not move when it arrives. */
export function LanguageSwitcher({ locales, testIdPrefix = "language" }: LanguageSwitcherProps) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage;
  if (!locales) {
    return (
      <div className="language-switcher" aria-hidden="true" style={{ visibility: "hidden" }}>
        {LOCALES.map((lng) => (
          <button key={lng} type="button" className="language-switcher__option" tabIndex={-1}>
            <span className="language-switcher__code">{lng.toUpperCase()}</span>
          </button>
        ))}
      </div>
    );
  }

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
