import { useTranslation } from "react-i18next";

/** Where the chosen method's form goes, while that method's own limits are on their way. */
export function MethodLoader() {
  const { t } = useTranslation();
  return (
    <p className="panel cashier-loading" role="status" data-testid="cashier-method-loading">
      <span className="spinner" aria-hidden="true" />
      {t("status.loading")}
    </p>
  );
}
