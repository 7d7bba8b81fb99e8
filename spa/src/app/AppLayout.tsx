import { useTranslation } from "react-i18next";
import { Link, Outlet } from "react-router";

import { LanguageSwitcher } from "../components/LanguageSwitcher";
import { useGetConfigQuery } from "../features/config/configApi";
import { useSkinBranding } from "../features/config/useSkinBranding";

/** The main layout: header, the current screen, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const { data } = useGetConfigQuery();
  useSkinBranding();
  const skin = data?.skin;

  return (
    <div className="shell">
      <header className="shell-header">
        {skin && (
          <Link to="/home" className="shell-brand">
            <img className="shell-brand__logo" src={skin.branding.logo} alt="" height={32} />
            <span className="shell-brand__name">{skin.name}</span>
          </Link>
        )}
        <LanguageSwitcher locales={skin?.locales} />
      </header>
      <main className="shell-main">
        <Outlet />
      </main>
      <footer className="shell-footer">
        <span className="shell-footer__age" aria-hidden="true">
          {t("footer.ageMark")}
        </span>
        <p>{t("footer.adultsOnly")}</p>
        {skin?.branding.operatorLine && <p className="shell-footer__operator">{skin.branding.operatorLine}</p>}
      </footer>
    </div>
  );
}
