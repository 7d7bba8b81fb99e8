import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import type { Instance } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { shortVersion, useFormats } from "../../lib/format";
import { useSignedIn } from "../../lib/store/hooks";
import { useGetInstancesQuery } from "./instancesApi";

const REFRESH_MS = 5000;

/**
 * Every gateway instance alive: version, uptime, the configuration it runs, how long since its
 * last heartbeat, and whether it serves, drains, or is stale (no heartbeat for 6 s: frozen).
 */
export function InstancesScreen() {
  const { t } = useTranslation("instances");
  const { data, error, isError } = useGetInstancesQuery(undefined, { pollingInterval: useSignedIn() ? REFRESH_MS : 0 });
  const behind = data?.instances.filter((instance) => !instance.sameVersion) ?? [];
  const stale = data?.instances.filter((instance) => instance.state === "stale") ?? [];
  return (
    <section className="view" aria-labelledby="instances-title" data-testid="instances">
      <div className="view-head">
        <h1 id="instances-title">{t("title")}</h1>
        {data && (
          <p className="view-head__facts">
            {t("summary", { count: data.instances.length, version: shortVersion(data.current) })}
          </p>
        )}
      </div>
      {isError && <ErrorNotice error={toConsoleError(error)} />}
      {behind.length > 0 && (
        <p className="notice notice--warn" role="status" data-testid="instances-behind">
          {t("behind", { count: behind.length })}
        </p>
      )}
      {stale.length > 0 && (
        <p className="notice notice--warn" role="status" data-testid="instances-stale">
          {t("staleNotice", { count: stale.length, ids: stale.map((instance) => instance.id).join(", ") })}
        </p>
      )}
      {data && (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="instances-title">
          <table className="instances">
            <thead>
              <tr>
                <th scope="col">{t("id")}</th>
                <th scope="col">{t("host")}</th>
                <th scope="col">{t("appVersion")}</th>
                <th scope="col">{t("uptime")}</th>
                <th scope="col">{t("configVersion")}</th>
                <th scope="col">{t("lastSeen")}</th>
                <th scope="col">{t("state")}</th>
              </tr>
            </thead>
            <tbody>
              {data.instances.map((instance) => (
                <InstanceRow key={instance.id} instance={instance} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One instance; one on another configuration version than this one's is flagged. */
function InstanceRow({ instance }: { instance: Instance }) {
  const { t } = useTranslation("instances");
  const format = useFormats();
  return (
    <tr data-testid="instance" data-same={instance.sameVersion} data-state={instance.state}
        className={instance.sameVersion && instance.state !== "stale" ? undefined : "row--flagged"}>
      <th scope="row">
        <code>{instance.id}</code>
      </th>
      <td>
        {instance.host} <span className="muted">pid {instance.pid}</span>
      </td>
      <td>{instance.appVersion}</td>
      <td title={instance.startedAt === null ? undefined : format.dateTime(instance.startedAt)}>
        {instance.uptimeS === null ? "–" : format.duration(instance.uptimeS)}
      </td>
      <td>
        <code title={instance.configVersion ?? undefined}>{shortVersion(instance.configVersion)}</code>
        {!instance.sameVersion && (
          <span className="badge badge--flag" data-testid="instance-other-version">
            {t("otherVersion")}
          </span>
        )}
      </td>
      <td data-testid="instance-last-seen">
        {instance.lastSeenS == null ? "–" : t("seenAgo", { seconds: format.number(instance.lastSeenS, 1) })}
      </td>
      <td>
        <span className={`badge badge--${instance.state === "stale" ? "flag" : instance.state}`} data-testid="instance-state">
          {t(instance.state)}
        </span>
        {instance.workers != null && <span className="muted"> {t("workers", { count: instance.workers })}</span>}
      </td>
    </tr>
  );
}
