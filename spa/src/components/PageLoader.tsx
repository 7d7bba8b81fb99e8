import { useTranslation } from "react-i18next";

/** A full-page spinner while a screen's code or first data is on its way. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="page-loader" role="status">
      <span className="page-loader__chip" aria-hidden="true" />
      <span className="visually-hidden">{t("status.loading")}</span>
    </div>
  );
}
