import { useTranslation } from "react-i18next";

import { useGetConfigQuery } from "../../features/config/configApi";
import { SessionStatus } from "../../features/session/SessionStatus";
import "../../styles/home.css";

export function HomeScreen() {
  const { t } = useTranslation();
  const { data, isError } = useGetConfigQuery();

  let title = <p>{t("status.loading")}</p>;
  if (data) title = <h1 className="home-hero__title">{data.skin.name}</h1>;
  else if (isError) title = <p role="alert">{t("status.configUnavailable")}</p>;

  return (
    <section className="home-hero">
      {title}
      <p className="home-hero__tagline">{t("home.tagline")}</p>
      <SessionStatus />
    </section>
  );
}
