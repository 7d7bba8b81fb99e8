import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { FakeConsole, refusal } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";
import { staleFiguresMs } from "./figuresAge";

const NOW = Date.now();
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

afterEach(() => {
  document.title = "";
  document.querySelector("link[rel~='icon']")?.remove();
});

function outage(server: FakeConsole) {
  server.status = {
    ...server.status,
    level: "down",
    problems: ["api", "capi"].map((upstream) => ({
      kind: "upstream", level: "down", since: ago(40), skin: "aurora", upstream, instance: null, detail: "capi: refused",
    })).concat([{ kind: "instance", level: "degraded", since: ago(9), skin: null, upstream: null, instance: "gw-2", detail: "9" }] as never),
  };
}

describe("the status line", () => {
  it("says every skin is healthy, with a green icon and the plain title", async () => {
    renderConsole("/instances", "vera");
    const line = await screen.findByTestId("status-line");
    expect(line).toHaveAttribute("data-level", "ok");
    expect(within(line).getByTestId("status-headline")).toHaveTextContent("Todas las marcas funcionan");
    expect(within(line).getByTestId("status-store")).toHaveTextContent("Almacén Redis: responde");
    await waitFor(() => expect(document.title).toBe("Consola de operadores"));
    expect(document.querySelector("link[rel~='icon']")).toHaveAttribute("data-level", "ok");
  });

  it("names the skin and its upstreams down since when, and the stale instance, on every screen", async () => {
    const server = new FakeConsole();
    outage(server);
    renderConsole("/history", "vera", server);
    const line = await screen.findByTestId("status-line");
    expect(line).toHaveAttribute("data-level", "down");
    expect(within(line).getByTestId("status-headline")).toHaveTextContent("aurora caída");
    const problems = within(line).getAllByTestId("status-problem");
    expect(problems).toHaveLength(2);
    expect(problems[0]).toHaveTextContent(/aurora: api, capi caído desde/);
    expect(problems[1]).toHaveTextContent("Instancia gw-2 sin latido: no se la ve hace 9 s");
    await waitFor(() => expect(document.title).toBe("⛔ aurora caída · Consola de operadores"));
    const icon = document.querySelector("link[rel~='icon']");
    expect(icon).toHaveAttribute("data-level", "down");
    expect(icon?.getAttribute("href")).toMatch(/^data:image\/svg\+xml,/);
  });

  it("leaves the title and icon once the operator signs out", async () => {
    const server = new FakeConsole();
    outage(server);
    renderConsole("/", "vera", server);
    await waitFor(() => expect(document.title).toBe("⛔ aurora caída · Consola de operadores"));
    fireEvent.click(screen.getByTestId("sign-out"));
    await screen.findByTestId("signin-screen");
    expect(document.title).toBe("Consola de operadores");
    expect(document.querySelector("link[rel~='icon']")).not.toHaveAttribute("data-level");
  });

  it("says the store does not answer as the gateway last saw it", async () => {
    const server = new FakeConsole();
    server.status = {
      ...server.status, level: "down",
      problems: [{ kind: "store", level: "down", since: ago(13), skin: null, upstream: null, instance: null, detail: null }],
      store: { kind: "redis", status: "unavailable", since: ago(13), answeredAt: ago(13) },
    };
    renderConsole("/", "vera", server);
    const line = await screen.findByTestId("status-line");
    expect(within(line).getByTestId("status-store")).toHaveTextContent("Almacén Redis: no responde");
    expect(within(line).getByTestId("status-problem")).toHaveTextContent(/El almacén compartido no responde desde/);
    await waitFor(() => expect(document.title).toBe("⛔ almacén no disponible · Consola de operadores"));
  });
});

describe("figures older than their refresh", () => {
  const cache = (fulfilledAgoMs: number, pollingInterval: number) => ({
    consoleApi: {
      queries: { "getOverview(undefined)": { fulfilledTimeStamp: NOW - fulfilledAgoMs } },
      subscriptions: { "getOverview(undefined)": { a: { pollingInterval } } },
    },
  });

  it("say how old they are once a refresh is missed twice", () => {
    expect(staleFiguresMs(cache(13_000, 5000), NOW)).toBe(13_000);
    expect(staleFiguresMs(cache(6000, 5000), NOW)).toBeNull();
  });

  it("are not counted for views no longer shown (no subscriber polls them)", () => {
    const state = cache(60_000, 5000);
    state.consoleApi.subscriptions = {} as never;
    expect(staleFiguresMs(state, NOW)).toBeNull();
  });

  it("show on the line when the gateway stops answering", async () => {
    const server = new FakeConsole();
    renderConsole("/", "vera", server);
    await screen.findByTestId("status-line");
    for (let i = 0; i < 20; i += 1) server.answerOnce("GET", "/admin/api/status", () => refusal(503, "STORE_UNAVAILABLE"));
    expect(await screen.findByTestId("figures-age", {}, { timeout: 9000 })).toHaveTextContent(/Cifras de hace \d+ s/);
  }, 12_000);
});
