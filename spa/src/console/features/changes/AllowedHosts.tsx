import { Fragment } from "react";
import { useTranslation } from "react-i18next";

/** The hosts a skin's upstreams may point at, as the deployment set them (the skins file, the
 * environment): shown beside the URL so that an operator knows before the gateway refuses one
 * (`URL_HOST_NOT_ALLOWED`). Read only: the console never changes them (docs/allowed-hosts.md). */
export function AllowedHosts({ hosts }: { hosts: string[] | undefined }) {
  const { t } = useTranslation("changes");
  if (!hosts?.length) return null;
  return (
    <p className="field__hint" data-testid="allowed-hosts">
      {t("allowedHosts")}{" "}
      {hosts.map((host, index) => (
        <Fragment key={host}>
          {index > 0 && ", "}
          <code>{host}</code>
        </Fragment>
      ))}
    </p>
  );
}
