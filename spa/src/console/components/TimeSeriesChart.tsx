import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One line of a chart: its values, one per step of the chart's `t`. */
export interface ChartLine {
  label: string;
  values: (number | null)[];
  color: string;
}

interface TimeSeriesChartProps {
  title: string;
  /** Epoch seconds, one per step. */
  t: number[];
  /** The first is the chart's own figure; more are drawn beside it and named in the caption. */
  lines: ChartLine[];
  /** How a value reads (axis, caption): "12 ms", "1,2 s", "3,4 %". */
  format: (value: number | null) => string;
  /** A fixed range (ratios 0..1); otherwise from 0 to the largest value. */
  fixedMax?: number;
  /** Steps without requests have no value (a gap): each value gets a dot, so a lone one shows. */
  sparse?: boolean;
  testId: string;
}

const HEIGHT = 150;
const CHAR_PX = 7.5;
/** uPlot's axis font is 12 px: a digit is under 7.5 px wide; ticks and gap take 18 px more. */
const AXIS_PAD_PX = 18;

/** The width the value axis needs for its longest label (uPlot's fixed 50 px cut "1.234 ms" off). */
export function axisWidth(labels: readonly string[] | null | undefined): number {
  const longest = Math.max(0, ...(labels ?? []).map((label) => label.length));
  return Math.max(40, Math.ceil(longest * CHAR_PX + AXIS_PAD_PX));
}

interface Look {
  labels: string;
  colors: string;
  fixedMax: number | undefined;
  sparse: boolean;
  lng: string;
}

/** uPlot's options: time axis in the operator's language (24 h), values as `format` says, the step
 * under the cursor told to `onCursor` (its index, or null when the cursor leaves). */
function chartOptions(look: Look, width: number, format: (value: number) => string, onCursor: (idx: number | null) => void): uPlot.Options {
  const { fixedMax, sparse, lng } = look;
  const time = new Intl.DateTimeFormat(lng, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const axis = { stroke: "#4b5563", grid: { stroke: "#e5e7eb" } };
  const colors = look.colors.split("|");
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => [0, fixedMax ?? (max > 0 ? max * 1.1 : 1)] },
    },
    series: [
      {},
      ...look.labels.split("|").map((label, i) => {
        const color = colors[i] ?? "#000000";
        const fill = i === 0 ? `${color}22` : undefined;
        return { label, stroke: color, width: 2, fill, spanGaps: false, points: { show: sparse, size: 4, fill: color } };
      }),
    ],
    axes: [
      { ...axis, values: (_u, splits) => splits.map((s) => time.format(s * 1000)) },
      { ...axis, size: (_u, values) => axisWidth(values), values: (_u, splits) => splits.map((s) => format(s)) },
    ],
  };
}

/**
 * A figure over the chosen range, drawn by uPlot on a canvas (hidden from screen readers, which get
 * the figure's caption: the latest value and the range's highest). The caption shows the latest
 * values, or those under the cursor with their time. The chart is made once and fed new data on
 * each refresh; its width follows its box.
 */
export function TimeSeriesChart({ title, t: steps, lines, format, fixedMax, sparse = false, testId }: TimeSeriesChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [pointed, setPointed] = useState<number | null>(null);
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  // The axis labels read the latest format (a new function on every render must not remake the chart).
  const formatRef = useRef(format);
  useEffect(() => {
    formatRef.current = format;
  });
  const first = lines[0]?.values ?? [];
  const latestAt = first.findLastIndex((value) => value != null);
  const at = pointed != null && pointed < steps.length ? pointed : null;
  const shownAt = at ?? (latestAt >= 0 ? latestAt : null);
  const highest = first.reduce<number | null>((max, v) => (v != null && (max == null || v > max) ? v : max), null);
  const labels = lines.map((line) => line.label).join("|");
  const colors = lines.map((line) => line.color).join("|");

  // Made again when the look or the language changes; new data alone goes through setData.
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const look = { labels, colors, fixedMax, sparse, lng };
    const options = chartOptions(look, Math.max(node.clientWidth, 200), (value) => formatRef.current(value), setPointed);
    const plot = new uPlot(options, [[], ...look.labels.split("|").map(() => [])], node);
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(node.clientWidth, 200), height: HEIGHT }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [labels, colors, fixedMax, sparse, lng]);

  // After the chart above (declared first, so a remade chart gets the data too).
  useEffect(() => {
    chart.current?.setData([steps, ...lines.map((line) => line.values)]);
  }, [steps, lines, labels, colors, fixedMax, sparse, lng]);

  const valueAt = (values: (number | null)[]) => format(shownAt == null ? null : (values[shownAt] ?? null));
  const time = new Intl.DateTimeFormat(lng, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <span className="chart__title">{title}</span>
        <span className="chart__latest" data-testid={`${testId}-latest`}>
          {at != null && (
            <time className="chart__at" dateTime={new Date(steps[at]! * 1000).toISOString()} data-testid={`${testId}-at`}>
              {time.format(steps[at]! * 1000)}
            </time>
          )}
          {lines.map((line, i) => (
            <span key={line.label} className="chart__value">
              {lines.length > 1 && (
                <>
                  <span className="chart__swatch" style={{ background: line.color }} aria-hidden="true" />
                  {line.label}{" "}
                </>
              )}
              <span data-testid={`${testId}-value-${i}`}>{valueAt(line.values)}</span>
            </span>
          ))}
        </span>
        <span className="visually-hidden">
          {t("chart.summary", { latest: format(latestAt >= 0 ? first[latestAt]! : null), highest: format(highest) })}
        </span>
      </figcaption>
      <div ref={box} className="chart__plot" aria-hidden="true" />
    </figure>
  );
}
