import { act, render, screen } from "@testing-library/react";
import type uPlot from "uplot";
import { afterEach, describe, expect, it } from "vitest";

import FakeUplot from "../test/fakeUplot";
import { axisWidth, TimeSeriesChart } from "./TimeSeriesChart";

afterEach(() => {
  FakeUplot.made = [];
});

const format = (value: number | null) => (value == null ? "–" : `${value} ms`);
const one = (values: (number | null)[]) => [{ label: "p95", values, color: "#000000" }];

/** What uPlot does when the cursor moves over step `idx` (null: it left the plot). */
function pointAt(chart: FakeUplot, idx: number | null) {
  const hook = chart.options.hooks?.setCursor;
  const moved = Array.isArray(hook) ? hook[0] : hook;
  act(() => moved?.({ cursor: { idx } } as unknown as uPlot));
}

describe("a chart", () => {
  it("draws the steps, captions the latest value and feeds new data to the same chart", () => {
    const { rerender, unmount } = render(
      <TimeSeriesChart title="p95" t={[100, 110, 120]} lines={one([5, null, 7])} format={format} testId="c" />,
    );
    expect(FakeUplot.made).toHaveLength(1);
    const chart = FakeUplot.made[0]!;
    expect(chart.data).toEqual([[100, 110, 120], [5, null, 7]]);
    expect(screen.getByTestId("c-latest")).toHaveTextContent("7 ms");
    expect(screen.getByRole("figure")).toHaveTextContent("máximo del periodo: 7 ms");
    expect(chart.options.series[1]?.spanGaps).toBe(false);

    rerender(<TimeSeriesChart title="p95" t={[110, 120, 130]} lines={one([null, 7, null])} format={format} testId="c" />);
    expect(FakeUplot.made).toHaveLength(1);
    expect(chart.data).toEqual([[110, 120, 130], [null, 7, null]]);
    expect(screen.getByTestId("c-latest")).toHaveTextContent("7 ms");

    unmount();
    expect(chart.destroyed).toBe(true);
  });

  it("keeps a ratio's axis from 0 to 1 and another's from 0 to above its highest value", () => {
    render(<TimeSeriesChart title="errors" t={[1]} lines={one([0.2])} format={format} fixedMax={1} testId="r" />);
    render(<TimeSeriesChart title="rps" t={[1]} lines={one([50])} format={format} testId="n" />);
    const [ratio, plain] = FakeUplot.made;
    const range = (chart: FakeUplot | undefined, max: number) => {
      const y = chart?.options.scales?.y?.range;
      return typeof y === "function" ? y(chart as never, 0, max, "y") : null;
    };
    expect(range(ratio, 0.2)).toEqual([0, 1]);
    expect(range(plain, 50)).toEqual([0, 55.00000000000001]);
    expect(range(plain, 0)).toEqual([0, 1]);
  });

  it("shows the values under the cursor with their time, and the latest again when it leaves", () => {
    const t = [1_764_669_600, 1_764_669_610, 1_764_669_620]; // 10:00:00, 10:00:10, 10:00:20 UTC
    const lines = [
      { label: "5xx", values: [0, 0.5, 0.1], color: "#c62828" },
      { label: "plataforma", values: [0.3, 0.2, 0.4], color: "#b45309" },
    ];
    render(<TimeSeriesChart title="Errores" t={t} lines={lines} format={format} testId="e" />);
    const chart = FakeUplot.made[0]!;
    expect(chart.data).toEqual([t, [0, 0.5, 0.1], [0.3, 0.2, 0.4]]);
    expect(chart.options.series.map((s) => s.label)).toEqual([undefined, "5xx", "plataforma"]);
    expect(screen.getByTestId("e-value-0")).toHaveTextContent("0.1 ms");
    expect(screen.getByTestId("e-value-1")).toHaveTextContent("0.4 ms");
    expect(screen.queryByTestId("e-at")).not.toBeInTheDocument();

    pointAt(chart, 1);
    expect(screen.getByTestId("e-value-0")).toHaveTextContent("0.5 ms");
    expect(screen.getByTestId("e-value-1")).toHaveTextContent("0.2 ms");
    expect(screen.getByTestId("e-at")).toHaveAttribute("dateTime", "2025-12-02T10:00:10.000Z");
    expect(screen.getByTestId("e-latest")).toHaveTextContent("plataforma");

    pointAt(chart, null);
    expect(screen.getByTestId("e-value-0")).toHaveTextContent("0.1 ms");
    expect(screen.queryByTestId("e-at")).not.toBeInTheDocument();
  });

  it("sizes the value axis to its longest label, so seconds and thousands are not cut off", () => {
    render(<TimeSeriesChart title="p95" t={[1]} lines={one([1500])} format={format} testId="p" />);
    const axis = FakeUplot.made[0]!.options.axes?.[1];
    const size = axis?.size;
    expect(typeof size).toBe("function");
    const sized = (labels: string[]) => (typeof size === "function" ? size(FakeUplot.made[0] as never, labels, 1, 0) : 0);
    expect(sized(["1.234 ms", "2.468 ms"])).toBe(axisWidth(["2.468 ms"]));
    expect(axisWidth(["2.468 ms"])).toBeGreaterThanOrEqual(8 * 7 + 10);
    expect(axisWidth(["0 %", "50 %"])).toBeLessThan(axisWidth(["1.234 ms"]));
    expect(axisWidth(null)).toBe(40);
  });
});
