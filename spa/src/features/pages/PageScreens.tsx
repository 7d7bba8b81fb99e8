import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { Icon } from "../../components/icons/Icon";
import "../../styles/pages.css";
import "../../styles/home.css";

type LegalPage = "privacy" | "terms" | "cashout" | "responsible";

interface Section {
  title: string;
  body: string;
  /** A list that follows the body (the reasons an account may be closed...). */
  items?: string[];
}

/** A legal page: back arrow to /home, heading, sections; it opens scrolled to the top. */
function Legal({ page }: { page: LegalPage }) {
  const { t } = useTranslation("pages");
  const sections = t(`legal.${page}.sections`, { returnObjects: true }) as Section[];
  useEffect(() => window.scrollTo({ top: 0 }), []);
  return (
    <article className="screen page legal" data-testid={`legal-${page}`}>
      <Link to="/home" className="legal__back" aria-label={t("legal.back")}>
        <Icon name="arrowLeft" />
        <span>{t("legal.back")}</span>
      </Link>
      <h1 className="screen__title">{t(`legal.${page}.title`)}</h1>
      <p className="page__lead">{t("legal.updated")}</p>
      {sections.map((section) => (
        <section key={section.title}>
          <h2>{section.title}</h2>
          <p>{section.body}</p>
          {section.items && (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      {page === "terms" && (
        <p>
          <Link to="/home">{t("legal.back")}</Link>
        </p>
      )}
    </article>
  );
}

export const PrivacyScreen = () => <Legal page="privacy" />;
export const TermsScreen = () => <Legal page="terms" />;
export const CashoutPolicyScreen = () => <Legal page="cashout" />;
export const ResponsibleGamingScreen = () => <Legal page="responsible" />;

/** Promotions: the house's current promotional banners (the lobby's: the route passes them), no login needed. */
export function PromotionsScreen({ banners }: { banners: ReactNode }) {
  const { t } = useTranslation("pages");
  return (
    <section className="screen page">
      <h1 className="screen__title">{t("promotions.title")}</h1>
      <p className="page__lead">{t("promotions.lead")}</p>
      {banners}
    </section>
  );
}
