import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import FakeUplot from "../test/fakeUplot";
import { TimeSeriesChart } from "./TimeSeriesChart";

afterEach(() => {
  FakeUplot.made = [];
});

const format = (value: number | null) => (value == null ? "–" : `${value} ms`);

describe("a chart", () => {
  it("draws the steps, captions the latest value and feeds new data to the same chart", () => {
    const series = { t: [100, 110, 120], values: [5, null, 7] };
    const { rerender, unmount } = render(
      <TimeSeriesChart title="p95" series={series} format={format} color="#000000" testId="c" />,
    );
    expect(FakeUplot.made).toHaveLength(1);
    const chart = FakeUplot.made[0]!;
    expect(chart.data).toEqual([[100, 110, 120], [5, null, 7]]);
    expect(screen.getByTestId("c-latest")).toHaveTextContent("7 ms");
    expect(screen.getByRole("figure")).toHaveTextContent("máximo de la hora: 7 ms");
    expect(chart.options.series[1]?.spanGaps).toBe(false);

    rerender(<TimeSeriesChart title="p95" series={{ t: [110, 120, 130], values: [null, 7, null] }} format={format}
                              color="#000000" testId="c" />);
    expect(FakeUplot.made).toHaveLength(1);
    expect(chart.data).toEqual([[110, 120, 130], [null, 7, null]]);
    expect(screen.getByTestId("c-latest")).toHaveTextContent("7 ms");

    unmount();
    expect(chart.destroyed).toBe(true);
  });

  it("keeps a ratio's axis from 0 to 1 and another's from 0 to above its highest value", () => {
    render(<TimeSeriesChart title="errors" series={{ t: [1], values: [0.2] }} format={format} color="#000" fixedMax={1} testId="r" />);
    render(<TimeSeriesChart title="rps" series={{ t: [1], values: [50] }} format={format} color="#000" testId="n" />);
    const [ratio, plain] = FakeUplot.made;
    const range = (chart: FakeUplot | undefined, max: number) => {
      const y = chart?.options.scales?.y?.range;
      return typeof y === "function" ? y(chart as never, 0, max, "y") : null;
    };
    expect(range(ratio, 0.2)).toEqual([0, 1]);
    expect(range(plain, 50)).toEqual([0, 55.00000000000001]);
    expect(range(plain, 0)).toEqual([0, 1]);
  });
});
