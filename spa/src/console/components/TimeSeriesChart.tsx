import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

import { clock } from "../lib/format";

export interface ChartSeries {
  /** Epoch seconds, one per step. */
  t: number[];
  values: (number | null)[];
}

interface TimeSeriesChartProps {
  title: string;
  series: ChartSeries;
  /** How a value reads (axis, summary): "12 ms", "3,4 %". */
  format: (value: number | null) => string;
  color: string;
  /** A fixed range (ratios 0..1); otherwise from 0 to the largest value. */
  fixedMax?: number;
  /** Steps without requests have no value (a gap): each value gets a dot, so a lone one shows. */
  sparse?: boolean;
  testId: string;
}

const HEIGHT = 150;

interface Look {
  title: string;
  color: string;
  fixedMax: number | undefined;
  sparse: boolean;
  lng: string;
}

/** uPlot's options for one metric: time axis in the operator's language (24 h, UTC), values as `format` says. */
function chartOptions(look: Look, width: number, format: (value: number) => string): uPlot.Options {
  const { title, color, fixedMax, sparse, lng } = look;
  const time = clock(lng);
  const axis = { stroke: "#4b5563", grid: { stroke: "#e5e7eb" } };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => [0, fixedMax ?? (max > 0 ? max * 1.1 : 1)] },
    },
    series: [
      {},
      { label: title, stroke: color, width: 2, fill: `${color}22`, spanGaps: false, points: { show: sparse, size: 4, fill: color } },
    ],
    axes: [
      { ...axis, values: (_u, splits) => splits.map((s) => time.format(s * 1000)) },
      { ...axis, size: 64, values: (_u, splits) => splits.map((s) => format(s)) },
    ],
  };
}

/**
 * One metric over the last hour, drawn by uPlot on a canvas (hidden from screen readers, which get
 * the figure's caption: the latest value and the hour's highest). The chart is made once and fed
 * new data on each refresh; its width follows its box.
 */
export function TimeSeriesChart({ title, series, format, color, fixedMax, sparse = false, testId }: TimeSeriesChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  // The axis labels read the latest format (a new function on every render must not remake the chart).
  const formatRef = useRef(format);
  useEffect(() => {
    formatRef.current = format;
  });
  const latest = [...series.values].reverse().find((value) => value != null) ?? null;
  const highest = series.values.reduce<number | null>((max, v) => (v != null && (max == null || v > max) ? v : max), null);

  // Made again when the look or the language changes; new data alone goes through setData.
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const look = { title, color, fixedMax, sparse, lng };
    const options = chartOptions(look, Math.max(node.clientWidth, 200), (value) => formatRef.current(value));
    const plot = new uPlot(options, [[], []], node);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(node.clientWidth, 200), height: HEIGHT }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [title, color, fixedMax, sparse, lng]);

  // After the chart above (declared first, so a remade chart gets the data too).
  useEffect(() => {
    chart.current?.setData([series.t, series.values]);
  }, [series, title, color, fixedMax, sparse, lng]);

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <span className="chart__title">{title}</span>
        <span className="chart__latest" data-testid={`${testId}-latest`}>
          {format(latest)}
        </span>
        <span className="visually-hidden">{t("chart.summary", { latest: format(latest), highest: format(highest) })}</span>
      </figcaption>
      <div ref={box} className="chart__plot" aria-hidden="true" />
    </figure>
  );
}
