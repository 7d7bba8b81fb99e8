import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { renderAppAt } from "../test/app";
import { loggedOut, skinConfig } from "../test/bff";

function inMaintenance(until: number, message?: Record<string, string>) {
  return { skin: { ...skinConfig.skin, maintenance: { until, message: message ?? null } } };
}

/** /bff/config answers `configs` in turn (the last one from then on). */
function stubConfigs(...configs: unknown[]) {
  let asked = 0;
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path === "/bff/config") return Promise.resolve(Response.json(configs[Math.min(asked++, configs.length - 1)]));
    if (path === "/bff/session") return Promise.resolve(Response.json(loggedOut));
    return Promise.resolve(Response.json({ message: "not found" }, { status: 404 }));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("the maintenance page", () => {
  it("stands in for every screen, with the operators' message and the expected end", async () => {
    stubConfigs(inMaintenance(Date.now() / 1000 + 3600, { es: "Volvemos a las dos" }));
    renderAppAt("/games/slots");
    const page = await screen.findByTestId("maintenance");
    expect(page).toHaveTextContent("Estamos en mantenimiento");
    expect(page).toHaveTextContent("Volvemos a las dos");
    expect(page.querySelector("time")).not.toBeNull();
  });

  it("leaves the legal pages readable", async () => {
    stubConfigs(inMaintenance(Date.now() / 1000 + 3600));
    renderAppAt("/termsandconditions");
    await waitFor(() => expect(document.querySelector("main#main")).not.toBeNull());
    expect(screen.queryByTestId("maintenance")).toBeNull();
  });

  it("goes away by itself at its end", async () => {
    const fetchMock = stubConfigs(inMaintenance(Date.now() / 1000 + 0.5), skinConfig);
    renderAppAt("/home");
    expect(await screen.findByTestId("maintenance")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId("maintenance")).toBeNull(), { timeout: 4000 });
    expect(fetchMock.mock.calls.filter(([i]) => String(i instanceof Request ? i.url : i).endsWith("/bff/config"))).toHaveLength(2);
  });
});
