import { useTranslation } from "react-i18next";

/** The ranges the charts offer, in minutes: up to an hour in 10 s steps, beyond in 2-minute ones. */
export const RANGES = [15, 60, 360, 1440] as const;
export type Range = (typeof RANGES)[number];

/** "15 min", "1 h", "24 h" in the operator's language (Intl's units: nothing to translate). */
export function rangeLabel(minutes: number, lng: string): string {
  const [value, unit] = minutes < 60 ? [minutes, "minute"] : [minutes / 60, "hour"];
  return new Intl.NumberFormat(lng, { style: "unit", unit, unitDisplay: "short" }).format(value);
}

/** The charts' range, one button each (the chosen one pressed). */
export function ChartRange({ value, onChange }: { value: Range; onChange: (minutes: Range) => void }) {
  const { t, i18n } = useTranslation("overview");
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className="chart-range" role="group" aria-label={t("charts.range")} data-testid="chart-range">
      <span className="chart-range__label" aria-hidden="true">{t("charts.range")}</span>
      {RANGES.map((minutes) => (
        <button key={minutes} type="button" className="button button--small" aria-pressed={minutes === value}
                onClick={() => onChange(minutes)} data-testid={`range-${minutes}`}>
          {rangeLabel(minutes, lng)}
        </button>
      ))}
    </div>
  );
}
