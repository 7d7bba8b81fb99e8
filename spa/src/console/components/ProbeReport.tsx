import { useTranslation } from "react-i18next";

import type { Probe } from "../api/types";
import { useFormats } from "../lib/format";

// A certificate this close to its end is flagged: a renewal should already be under way.
const TLS_WARN_DAYS = 14;

/** The preview's probe of each new URL: did it answer (why not, in the operator's words), how fast, its certificate. */
export function ProbeReport({ probes }: { probes: Probe[] }) {
  const { t } = useTranslation();
  const format = useFormats();
  if (probes.length === 0) return null;
  return (
    <ul className="probes" data-testid="probe-report">
      {probes.map((probe) => (
        <li key={probe.url} className={probe.ok ? "probe probe--ok" : "probe probe--failed"} data-ok={probe.ok}>
          <p className="probe__head">
            <span className={probe.ok ? "dot dot--up" : "dot dot--down"} aria-hidden="true" />
            <strong>{probe.ok ? t("probe.ok") : t("probe.failed")}</strong> <code className="url">{probe.url}</code>
          </p>
          <dl className="facts">
            <dt>{t("probe.status")}</dt>
            <dd>{probe.status ?? "–"}</dd>
            <dt>{t("probe.latency")}</dt>
            <dd>{format.ms(probe.latencyMs)}</dd>
            {probe.error && (
              <>
                <dt>{t("probe.error")}</dt>
                <dd data-testid="probe-error" title={probe.error}>
                  {probe.code ? t(`probe.errors.${probe.code}`) : probe.error}
                </dd>
              </>
            )}
            {probe.tls && (
              <>
                <dt>{t("probe.subject")}</dt>
                <dd data-testid="tls-subject">{probe.tls.subject}</dd>
                <dt>{t("probe.issuer")}</dt>
                <dd>{probe.tls.issuer}</dd>
                <dt>{t("probe.expires")}</dt>
                <dd data-testid="tls-expiry" className={probe.tls.daysLeft < TLS_WARN_DAYS ? "warn" : undefined}>
                  {t("probe.expiresIn", { date: format.dateTime(probe.tls.notAfter), count: probe.tls.daysLeft })}
                </dd>
              </>
            )}
          </dl>
        </li>
      ))}
    </ul>
  );
}
