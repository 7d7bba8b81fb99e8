import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="view" data-testid="not-found">
      <h1>{t("notFound.title")}</h1>
      <p>
        <Link to="/">{t("notFound.back")}</Link>
      </p>
    </section>
  );
}
