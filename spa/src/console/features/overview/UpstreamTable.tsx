import { useTranslation } from "react-i18next";

import type { Skin, Upstream } from "../../api/types";
import { BreakerBadge, HealthBadge } from "../../components/Badges";

interface UpstreamTableProps {
  skin: Skin;
  /** Given to operators and admins: each row gets its "Change" button. */
  onChange?: (upstream: Upstream) => void;
}

/** A skin's upstreams: where each points, how its last probe went, its breaker. */
export function UpstreamTable({ skin, onChange }: UpstreamTableProps) {
  const { t } = useTranslation("overview");
  return (
    <div className="table-scroll">
      <table className="upstreams cards" data-testid={`upstreams-${skin.id}`}>
        <caption className="visually-hidden">{t("upstreams.caption", { skin: skin.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("upstreams.name")}</th>
            <th scope="col">{t("upstreams.url")}</th>
            <th scope="col">{t("upstreams.health")}</th>
            <th scope="col">{t("upstreams.breaker")}</th>
            {onChange && (
              <th scope="col">
                <span className="visually-hidden">{t("upstreams.actions")}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {skin.upstreams.map((upstream) => (
            <tr key={upstream.name} data-testid={`upstream-${skin.id}-${upstream.name}`}>
              <th scope="row">{upstream.name}</th>
              <td data-label={t("upstreams.url")}>
                <code className="url" data-testid="upstream-url">
                  {upstream.url}
                </code>
                {upstream.overridden && (
                  <span className="overridden">
                    <span className="badge badge--override">{t("upstreams.overridden")}</span>{" "}
                    {t("upstreams.fileUrl")} <code className="url">{upstream.fileUrl}</code>
                  </span>
                )}
              </td>
              <td data-label={t("upstreams.health")}>
                <HealthBadge health={upstream.health} />
              </td>
              <td data-label={t("upstreams.breaker")}>
                <BreakerBadge breaker={upstream.breaker} />
              </td>
              {onChange && (
                <td className="cards__action">
                  <button type="button" className="button" onClick={() => onChange(upstream)}
                          aria-label={t("upstreams.changeLabel", { upstream: upstream.name, skin: skin.name })}
                          data-testid="change-upstream">
                    {t("upstreams.change")}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
