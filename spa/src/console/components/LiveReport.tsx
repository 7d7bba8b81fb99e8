import { useTranslation } from "react-i18next";

import type { Applied } from "../api/types";
import { shortVersion } from "../lib/format";

/** Where the new version runs: "live on 3/3", or the instances that did not acknowledge it named. */
export function LiveReport({ applied }: { applied: Applied }) {
  const { t } = useTranslation();
  const { acknowledged, total, missing } = applied.live;
  const everywhere = missing.length === 0 && acknowledged >= total;
  return (
    <div className={everywhere ? "notice notice--ok" : "notice notice--warn"} role="status" data-testid="live-report">
      <p>
        <strong data-testid="live-count">{t("live.count", { acknowledged, total })}</strong>{" "}
        {t("live.version", { version: shortVersion(applied.version) })}
      </p>
      {!everywhere && (
        <>
          <p>{t("live.missing", { count: missing.length })}</p>
          <ul data-testid="live-missing">
            {missing.map((instance) => (
              <li key={instance.id}>
                <code>{instance.id}</code> ({instance.host})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
