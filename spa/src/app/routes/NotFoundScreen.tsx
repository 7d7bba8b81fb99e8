import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import "../../styles/not-found.css";
import { NotFoundArt } from "./NotFoundArt";

/** Any unknown path: a full-screen dark page whose 404 image leads back to /. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <main className="not-found" data-testid="not-found">
      <Link to="/" className="not-found__image-link" aria-label={t("notFound.imageLabel")}>
        <NotFoundArt />
      </Link>
      <h1 className="not-found__title">{t("notFound.title")}</h1>
      <p className="not-found__message">{t("notFound.message")}</p>
      <p className="not-found__hint">{t("notFound.backHome")}</p>
    </main>
  );
}
