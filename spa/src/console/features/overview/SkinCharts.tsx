import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { SkinSeries } from "../../api/types";
import { TimeSeriesChart } from "../../components/TimeSeriesChart";
import { type Formats, useFormats } from "../../lib/format";

const COLORS = {
  rps: "#1f5fbf",
  errorRate: "#c62828",
  platformErrorRate: "#b45309",
  p95Ms: "#6a3fb5",
  cacheHitRatio: "#1a7f37",
} as const;

/** A latency as the chart reads it: "840 ms" under a second, "1,2 s" (in the operator's language) from one. */
export function latency(format: Formats, ms: number | null): string {
  if (ms == null || ms < 1000) return format.ms(ms);
  return `${format.number(ms / 1000, ms < 10_000 ? 1 : 0)} s`;
}

/** A skin's chosen range: requests/s, errors (5xx and the platform's own refusals), p95 latency and cache
 * hit ratio; a link to the range's events. */
export function SkinCharts({ skin, series }: { skin: string; series: SkinSeries | undefined }) {
  const { t } = useTranslation("overview");
  const format = useFormats();
  const formatters = {
    rps: (value: number | null) => (value == null ? "–" : t("charts.rpsValue", { value: format.number(value, 1) })),
    ratio: (value: number | null) => format.percent(value),
    latency: (value: number | null) => latency(format, value),
  };
  if (!series || series.t.length === 0) {
    return <p className="muted">{t("charts.none")}</p>;
  }
  const line = (label: string, values: (number | null)[], color: string) => [{ label, values, color }];
  const errors = [
    { label: t("charts.serverErrors"), values: series.errorRate, color: COLORS.errorRate },
    { label: t("charts.platformErrors"), values: series.platformErrorRate ?? [], color: COLORS.platformErrorRate },
  ];
  return (
    <>
    <p className="charts__events">
      <Link to={`/events?skin=${skin}&since=${series.t[0]}`} data-testid={`events-${skin}`}>{t("charts.events")}</Link>
    </p>
    <div className="charts" data-testid={`charts-${skin}`}>
      <TimeSeriesChart title={t("charts.rps")} t={series.t} lines={line(t("charts.rps"), series.rps, COLORS.rps)}
                       format={formatters.rps} testId={`chart-${skin}-rps`} />
      <TimeSeriesChart title={t("charts.errorRate")} t={series.t} lines={errors} format={formatters.ratio}
                       fixedMax={1} sparse testId={`chart-${skin}-errors`} />
      <TimeSeriesChart title={t("charts.p95")} t={series.t} lines={line(t("charts.p95"), series.p95Ms, COLORS.p95Ms)}
                       format={formatters.latency} sparse testId={`chart-${skin}-p95`} />
      <TimeSeriesChart title={t("charts.cacheHit")} t={series.t}
                       lines={line(t("charts.cacheHit"), series.cacheHitRatio, COLORS.cacheHitRatio)}
                       format={formatters.ratio} fixedMax={1} sparse testId={`chart-${skin}-cache`} />
    </div>
    </>
  );
}
