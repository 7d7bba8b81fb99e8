import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { Locale } from "../i18n/language";
import type { Maintenance } from "../lib/config/types";

import "../styles/maintenance.css";

/**
 * What every screen of the site shows while the skin is in maintenance: the operators' message in
 * the player's language (else the default words), and the expected end in the player's own time.
 */
export function MaintenancePage({ maintenance }: { maintenance: Maintenance }) {
  const { t, i18n } = useTranslation("shell");
  const language = i18n.language as Locale;
  const end = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(maintenance.until * 1000),
  );
  const message = maintenance.message?.[language];
  return (
    <main className="maintenance" data-testid="maintenance" lang={language}>
      <h1 className="maintenance__title">{t("maintenance.title")}</h1>
      <p className="maintenance__message">{message || t("maintenance.lead")}</p>
      <p className="maintenance__until">
        {t("maintenance.until")} <time dateTime={new Date(maintenance.until * 1000).toISOString()}>{end}</time>
      </p>
      <nav className="maintenance__legal" aria-label={t("maintenance.legal")}>
        <Link to="/termsandconditions">{t("footer.terms")}</Link>
        <Link to="/privacypolicy">{t("footer.privacy")}</Link>
      </nav>
    </main>
  );
}
