import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import type { SkinSeries } from "../../api/types";
import { TimeSeriesChart } from "../../components/TimeSeriesChart";
import { useFormats } from "../../lib/format";

const COLORS = { rps: "#1f5fbf", errorRate: "#c62828", p95Ms: "#6a3fb5", cacheHitRatio: "#1a7f37" } as const;

/** A skin's last hour: requests/s, error rate, p95 latency and cache hit ratio; a link to the hour's events. */
export function SkinCharts({ skin, series }: { skin: string; series: SkinSeries | undefined }) {
  const { t } = useTranslation("overview");
  const format = useFormats();
  const formatters = {
    rps: (value: number | null) => (value == null ? "–" : t("charts.rpsValue", { value: format.number(value, 1) })),
    ratio: (value: number | null) => format.percent(value),
    ms: (value: number | null) => format.ms(value),
  };
  if (!series || series.t.length === 0) {
    return <p className="muted">{t("charts.none")}</p>;
  }
  const of = (values: (number | null)[]) => ({ t: series.t, values });
  return (
    <>
    <p className="charts__events">
      <Link to={`/events?skin=${skin}&since=${series.t[0]}`} data-testid={`events-${skin}`}>{t("charts.events")}</Link>
    </p>
    <div className="charts" data-testid={`charts-${skin}`}>
      <TimeSeriesChart title={t("charts.rps")} series={of(series.rps)} format={formatters.rps} color={COLORS.rps}
                       testId={`chart-${skin}-rps`} />
      <TimeSeriesChart title={t("charts.errorRate")} series={of(series.errorRate)} format={formatters.ratio}
                       color={COLORS.errorRate} fixedMax={1} sparse testId={`chart-${skin}-errors`} />
      <TimeSeriesChart title={t("charts.p95")} series={of(series.p95Ms)} format={formatters.ms} color={COLORS.p95Ms} sparse
                       testId={`chart-${skin}-p95`} />
      <TimeSeriesChart title={t("charts.cacheHit")} series={of(series.cacheHitRatio)} format={formatters.ratio}
                       color={COLORS.cacheHitRatio} fixedMax={1} sparse testId={`chart-${skin}-cache`} />
    </div>
    </>
  );
}
