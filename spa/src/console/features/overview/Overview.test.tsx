import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FakeConsole, json } from "../../test/fakeConsole";
import FakeUplot from "../../test/fakeUplot";
import { renderConsole } from "../../test/render";

afterEach(() => {
  vi.useRealTimers();
  FakeUplot.made = [];
});

describe("the overview", () => {
  it("shows each upstream's URL, health, latency, last probe and breaker", async () => {
    const { server } = renderConsole("/", "vera");
    server.overrides["aurora/api"] = "https://wallet-2.example";
    const row = await screen.findByTestId("upstream-aurora-api");
    expect(within(row).getByTestId("upstream-url")).toHaveTextContent("https://wallet-2.example");
    expect(row).toHaveTextContent("cambiado");
    expect(row).toHaveTextContent("archivo: http://127.0.0.1:8001");
    expect(within(row).getByTestId("health")).toHaveAttribute("data-status", "up");
    expect(within(row).getByTestId("health")).toHaveTextContent("en línea");
    expect(within(row).getByTestId("health")).toHaveTextContent("13 ms");
    expect(within(row).getByTestId("health")).toHaveTextContent(/sondeado hace [4-6] s/);
    expect(within(row).getByTestId("breaker")).toHaveTextContent("cerrado");
    expect(screen.getByTestId("config-version")).toHaveTextContent("v1-aaaaaaaaa");
  });

  it("names the routes whose platform answers broke their contract, and whose counts they are", async () => {
    const first = renderConsole("/", "vera");
    expect(await screen.findByTestId("breaches-aurora")).toHaveTextContent(
      "Ninguna respuesta de la plataforma rompió su contrato (contadas por esta instancia desde que arrancó).",
    );
    first.unmount();
    const server = new FakeConsole();
    server.breaches = [{ route: "balance", count: 12 }, { route: "getProfile", count: 1 }];
    renderConsole("/", "vera", server);
    const breaches = await screen.findByTestId("breaches-aurora");
    expect(breaches).toHaveTextContent("balance: 12 respuestas rompieron el contrato");
    expect(breaches).toHaveTextContent("getProfile: 1 respuesta rompió el contrato");
  });

  it("draws four charts per skin from the series", async () => {
    renderConsole("/", "vera");
    const charts = await screen.findByTestId("charts-aurora");
    expect(within(charts).getAllByRole("figure")).toHaveLength(4);
    expect(within(charts).getByText("Peticiones/s")).toBeInTheDocument();
    expect(within(charts).getByText("Tasa de errores")).toBeInTheDocument();
    expect(within(charts).getByText("Latencia p95")).toBeInTheDocument();
    expect(within(charts).getByText("Aciertos de caché")).toBeInTheDocument();
    // The latest step of the fake: 359 % 7 = 2 requests/s, 80 % hits.
    expect(screen.getByTestId("chart-aurora-rps-latest")).toHaveTextContent("2/s");
    expect(screen.getByTestId("chart-aurora-cache-latest")).toHaveTextContent("80");
    const rps = FakeUplot.made.find((chart) => chart.options.series[1]?.label === "Peticiones/s");
    expect(rps?.data[0]).toHaveLength(360);
    expect(rps?.data[1]?.[359]).toBe(2);
  });

  it("asks again every 5 seconds, and the figures move", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = renderConsole("/", "vera");
    await screen.findByTestId("charts-aurora");
    const asked = () => server.calls("GET", "/admin/api/series").length;
    const before = asked();
    server.answerOnce("GET", "/admin/api/series", () => {
      const series = server.series();
      series.skins.aurora!.rps[359] = 42;
      return json(200, series);
    });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(asked()).toBe(before + 1);
    expect(await screen.findByTestId("chart-aurora-rps-latest")).toHaveTextContent("42/s");
    // The first load is the operator's doing; the refreshes are not (they do not keep an idle session alive).
    const overviews = server.calls("GET", "/admin/api/overview").map((call) => call.headers.get("x-console-poll"));
    expect(overviews[0]).toBeNull();
    expect(overviews.slice(1)).toContain("1");
    expect(overviews.slice(1).every((poll) => poll === "1")).toBe(true);
  });

  it("gives a viewer no change controls", async () => {
    renderConsole("/", "vera");
    await screen.findByTestId("upstream-aurora-api");
    expect(screen.queryByTestId("change-upstream")).not.toBeInTheDocument();
    expect(screen.queryByTestId("purge-open")).not.toBeInTheDocument();
    expect(screen.queryByTestId("revoke-open")).not.toBeInTheDocument();
  });

  it("gives an operator a change button per upstream, a purge and a revocation per skin", async () => {
    renderConsole("/", "alice");
    await screen.findByTestId("upstream-aurora-api");
    expect(screen.getAllByTestId("change-upstream")).toHaveLength(4);
    expect(screen.getByRole("button", { name: "Cambiar el upstream api de Aurora Casino" })).toBeInTheDocument();
    expect(screen.getByTestId("purge-open")).toBeInTheDocument();
    expect(screen.getByTestId("revoke-open")).toBeInTheDocument();
  });

  it("says why a configuration or the operators file was rejected", async () => {
    const { server } = renderConsole("/", "ada");
    server.answerOnce("GET", "/admin/api/overview", () => {
      const overview = server.overview();
      overview.config.error = "skins.toml: line 3: expected '='";
      overview.operatorsFile.error = "operators.toml: unknown role 'root'";
      return json(200, overview);
    });
    expect(await screen.findByTestId("config-error")).toHaveTextContent("line 3: expected '='");
    expect(screen.getByTestId("operators-file-error")).toHaveTextContent("unknown role 'root'");
  });

  it("marks an upstream that is down and a breaker that is open", async () => {
    const { server } = renderConsole("/", "vera");
    server.answerOnce("GET", "/admin/api/overview", () => {
      const overview = server.overview();
      const api = overview.skins[0]!.upstreams[0]!;
      api.health = { status: "down", latencyMs: null, checkedAt: null, detail: "refused" };
      api.breaker = { state: "open", since: "2026-11-26T09:59:00Z" };
      return json(200, overview);
    });
    const row = await screen.findByTestId("upstream-aurora-api");
    expect(await within(row).findByText("caído")).toBeInTheDocument();
    expect(row).toHaveTextContent("refused");
    expect(row).toHaveTextContent("sin sondear");
    expect(within(row).getByTestId("breaker")).toHaveAttribute("data-state", "open");
    expect(within(row).getByTestId("breaker")).toHaveTextContent("abierto");
  });
});
