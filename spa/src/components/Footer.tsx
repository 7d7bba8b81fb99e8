import { memo } from "react";
import { useTranslation } from "react-i18next";

import { useAppDispatch } from "../lib/store/hooks";
import { showNotice } from "../lib/store/uiSlice";
import { useGetConfigQuery } from "../lib/config/configApi";
import { operatorLine } from "../lib/config/operatorLine";
import { useLocale } from "../i18n/useLocale";
import { ExternalLink } from "./ExternalLink";
import { Icon } from "./icons/Icon";
import { SiteLink } from "./SiteLink";

const SOCIAL = [
  { name: "Facebook", href: "https://www.facebook.com/" },
  { name: "Instagram", href: "https://www.instagram.com/" },
  { name: "X", href: "https://x.com/" },
  { name: "Telegram", href: "https://telegram.org/" },
];

/** Information links, frequent questions, licences, responsible gaming, terms,
 * contact us, online chat, social links, the 18+ mark and the operator line. */
export const Footer = memo(function Footer() {
  const { t } = useTranslation("shell");
  const dispatch = useAppDispatch();
  const { data } = useGetConfigQuery();
  const skin = data?.skin;
  const locale = useLocale();
  const operator = skin && operatorLine(skin.branding, locale);

  return (
    <footer className="site-footer" data-testid="site-footer">
      <div className="site-footer__columns">
        <nav className="site-footer__column" aria-labelledby="footer-info">
          <h2 id="footer-info" className="site-footer__heading">
            {t("footer.information")}
          </h2>
          <SiteLink to="/promotions">{t("menu.promotions")}</SiteLink>
          <SiteLink to="/privacypolicy">{t("footer.privacy")}</SiteLink>
          <SiteLink to="/termsandconditions">{t("footer.terms")}</SiteLink>
          <SiteLink to="/taxation">{t("footer.cashoutPolicy")}</SiteLink>
        </nav>
        <nav className="site-footer__column" aria-labelledby="footer-help">
          <h2 id="footer-help" className="site-footer__heading">
            {t("footer.help")}
          </h2>
          <SiteLink to="/contactus#faq">{t("menu.faq")}</SiteLink>
          <SiteLink to="/contactus">{t("menu.contactUs")}</SiteLink>
          <button
            type="button"
            className="site-footer__chat"
            onClick={() => dispatch(showNotice({ kind: "notification", variant: "info", text: t("footer.chatComing") }))}
          >
            <Icon name="chat" size={16} /> {t("footer.onlineChat")}
          </button>
          <SiteLink to="/resposiblegaming">{t("footer.responsibleGaming")}</SiteLink>
        </nav>
        <section className="site-footer__column" aria-labelledby="footer-licences">
          <h2 id="footer-licences" className="site-footer__heading">
            {t("footer.licences")}
          </h2>
          <p className="site-footer__text">{t("footer.licenceText", { name: skin?.name ?? "" })}</p>
        </section>
        <section className="site-footer__column" aria-labelledby="footer-social">
          <h2 id="footer-social" className="site-footer__heading">
            {t("footer.followUs")}
          </h2>
          <ul className="site-footer__social">
            {SOCIAL.map((network) => (
              <li key={network.name}>
                <ExternalLink href={network.href}>{network.name}</ExternalLink>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="site-footer__bottom">
        <span className="age-mark" role="img" aria-label={t("footer.ageMarkLabel")}>
          18+
        </span>
        <p className="site-footer__text">{t("footer.adultsOnly")}</p>
        {operator && <p className="site-footer__operator">{operator}</p>}
      </div>
    </footer>
  );
});
