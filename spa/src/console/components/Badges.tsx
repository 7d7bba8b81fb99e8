import { useTranslation } from "react-i18next";

import type { Breaker, Health } from "../api/types";
import { useFormats } from "../lib/format";

/** An upstream's last probe: a dot and its word (never the colour alone), latency and when. */
export function HealthBadge({ health }: { health: Health }) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <span className="health" data-testid="health" data-status={health.status}>
      <span className={`dot dot--${health.status}`} aria-hidden="true" />
      <span className="health__status">{t(`health.${health.status}`)}</span>
      <span className="health__latency">{format.ms(health.latencyMs)}</span>
      <span className="health__when" title={format.dateTime(health.checkedAt)}>
        {health.checkedAt ? t("health.checked", { ago: format.ago(health.checkedAt) }) : t("health.neverChecked")}
      </span>
      {health.detail && <span className="health__detail">{health.detail}</span>}
    </span>
  );
}

export function BreakerBadge({ breaker }: { breaker: Breaker }) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <span className={`badge badge--breaker-${breaker.state}`} data-testid="breaker" data-state={breaker.state}
          title={breaker.since ? t("breaker.since", { when: format.dateTime(breaker.since) }) : undefined}>
      {t(`breaker.${breaker.state}`)}
    </span>
  );
}
