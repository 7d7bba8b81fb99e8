import { useTranslation } from "react-i18next";

import { useGetSessionQuery } from "./sessionApi";

/** Whether the visitor is logged in, and as whom. */
export function SessionStatus() {
  const { t } = useTranslation();
  const { data: session, isLoading, isError } = useGetSessionQuery();

  if (isLoading) return <p className="session-status">{t("status.loading")}</p>;
  if (isError || !session) {
    return (
      <p className="session-status" role="alert">
        {t("session.unavailable")}
      </p>
    );
  }

  let label = t("session.loggedOut");
  if (session.loggedIn) {
    label = session.login ? t("session.loggedInAs", { login: session.login }) : t("session.loggedIn");
  }
  return (
    <p className="session-status" data-logged-in={session.loggedIn}>
      <span className="session-status__dot" aria-hidden="true" />
      {label}
    </p>
  );
}
