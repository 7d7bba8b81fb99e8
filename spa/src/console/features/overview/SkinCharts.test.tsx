import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";

import { formats } from "../../lib/format";
import { FakeConsole, json } from "../../test/fakeConsole";
import FakeUplot from "../../test/fakeUplot";
import { renderConsole } from "../../test/render";
import { rangeLabel } from "./ChartRange";
import { latency } from "./SkinCharts";

afterEach(() => {
  FakeUplot.made = [];
});

describe("the overview's charts", () => {
  it("read a latency from a second on in seconds, in the operator's language", () => {
    expect(latency(formats("es"), 840)).toBe("840 ms");
    expect(latency(formats("es"), 1234)).toBe("1,2 s");
    expect(latency(formats("en"), 1234)).toBe("1.2 s");
    expect(latency(formats("pt"), 12_500)).toBe("13 s");
    expect(latency(formats("en"), null)).toBe("–");
  });

  it("chart the platform's own refusals beside the 5xx rate", async () => {
    renderConsole("/", "vera");
    const errors = await screen.findByTestId("chart-aurora-errors");
    // The fake's latest step: 1 % 5xx, 30 % refused by the platform (HTTP 200 success: false).
    expect(within(errors).getByTestId("chart-aurora-errors-value-0")).toHaveTextContent("1 %");
    expect(within(errors).getByTestId("chart-aurora-errors-value-1")).toHaveTextContent("30 %");
    expect(errors).toHaveTextContent("plataforma");
    const chart = FakeUplot.made.find((made) => made.options.series[1]?.label === "5xx");
    expect(chart?.options.series[2]?.label).toBe("plataforma");
    expect(chart?.data[2]?.[359]).toBe(0.3);
  });

  it("name the platform's refusals by code in the skin's row, and nothing when there were none", async () => {
    const first = renderConsole("/", "vera");
    await screen.findByTestId("charts-aurora");
    expect(screen.queryByTestId("platform-errors-aurora")).not.toBeInTheDocument();
    first.unmount();
    const server = new FakeConsole();
    server.platformErrors = [
      { routeClass: "read", code: "SESSION_EXPIRED", count: 1974 },
      { routeClass: "exclusive", code: "none", count: 1 },
    ];
    renderConsole("/", "vera", server);
    const refusals = await screen.findByTestId("platform-errors-aurora");
    expect(refusals).toHaveTextContent("rechazó con HTTP 200 y success: false (contadas por esta instancia desde que arrancó)");
    const items = within(refusals).getAllByTestId("platform-error");
    expect(items[0]).toHaveTextContent("SESSION_EXPIRED (lecturas): 1974 respuestas");
    expect(items[1]).toHaveTextContent("sin código (llamadas de cuenta y dinero): 1 respuesta");
  });

  it("show a p95 over a second in seconds", async () => {
    const { server } = renderConsole("/", "vera");
    server.answerOnce("GET", "/admin/api/series", () => {
      const series = server.series();
      series.skins.aurora!.p95Ms[359] = 1840;
      return json(200, series);
    });
    expect(await screen.findByTestId("chart-aurora-p95-latest")).toHaveTextContent("1,8 s");
    const p95 = FakeUplot.made.find((made) => made.options.series[1]?.label === "Latencia p95");
    const values = p95?.options.axes?.[1]?.values;
    const labels = typeof values === "function" ? values(p95 as never, [0, 500, 1000, 1500], 1, 0, 0) : [];
    expect(labels).toEqual(["0 ms", "500 ms", "1 s", "1,5 s"]);
  });

  it("ask for the range the operator picks, an hour at first", async () => {
    const { server } = renderConsole("/", "vera");
    const range = await screen.findByTestId("chart-range");
    expect(within(range).getAllByRole("button").map((b) => b.textContent)).toEqual(["15 min", "1 h", "6 h", "24 h"]);
    expect(screen.getByTestId("range-60")).toHaveAttribute("aria-pressed", "true");
    const asked = () => server.calls("GET", "/admin/api/series").map((call) => new URLSearchParams(call.query).get("minutes"));
    expect(asked()).toEqual(["60"]);
    await userEvent.click(screen.getByTestId("range-1440"));
    expect(screen.getByTestId("range-1440")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("range-60")).toHaveAttribute("aria-pressed", "false");
    expect(asked()).toContain("1440");
    expect(rangeLabel(360, "pt")).toBe("6 h");
  });
});
