import { useId } from "react";
import { useTranslation } from "react-i18next";

import { chooseLocale, isLocale } from "../i18n";
import { LOCALES } from "../i18n/resources";

/** The console's language: es, pt or en, each named in itself. */
export function LanguagePicker() {
  const id = useId();
  const { t, i18n } = useTranslation();
  return (
    <span className="language">
      <label htmlFor={id} className="visually-hidden">
        {t("language.label")}
      </label>
      <select id={id} value={i18n.resolvedLanguage} data-testid="language"
              onChange={(event) => isLocale(event.target.value) && chooseLocale(event.target.value)}>
        {LOCALES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
