import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router";

/** Shown when a screen throws or its code fails to load (e.g. a chunk gone after a deploy). */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className="route-error" role="alert">
      <p>{t("status.routeError")}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t("status.reload")}
      </button>
    </main>
  );
}
