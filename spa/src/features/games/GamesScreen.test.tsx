import { screen, within } from "@testing-library/react";
import { Outlet, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";

import { providerFlags, toSwitches } from "../../lib/providers/flags";
import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { GamesScreen } from "./GamesScreen";

/** The live casino as the layout renders it, with the provider list given. */
function renderLiveCasino(providers: { name: string; status: boolean }[]) {
  stubBff({ "/bff/config": skinConfig, "/bff/session": { loggedIn: false, login: null } });
  const flags = providerFlags(toSwitches(providers), true);
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={flags} />}>
        <Route path="/livedealer" element={<GamesScreen category="livedealer" sportsEvents={null} />} />
      </Route>
    </Routes>,
    { route: "/livedealer" },
  );
}

describe("live casino", () => {
  it("shows Evolution and Ezugi as two image tiles", async () => {
    renderLiveCasino([{ name: "pragmaticplaylivecasino", status: true }]);
    const evolution = await screen.findByTestId("tile-evolution");
    expect(within(evolution).getByRole("img", { name: "Evolution" })).toHaveAttribute("src", "/capi/uploads/live-evolution.svg");
    expect(within(screen.getByTestId("tile-ezugi")).getByRole("img", { name: "Ezugi" })).toHaveAttribute("src", "/capi/uploads/live-ezugi.svg");
  });

  it("links the road to the cup while pragmaticplaylivecasino is on", async () => {
    renderLiveCasino([{ name: "pragmaticplaylivecasino", status: true }]);
    const link = await screen.findByTestId("road-to-the-cup");
    expect(link).toHaveAttribute("href", "/blackjackleague");
    expect(link).toHaveTextContent("Camino a la Copa");
  });

  it.each([
    ["switched off", [{ name: "pragmaticplaylivecasino", status: false }]],
    ["absent from the list", [{ name: "evolution", status: true }]],
  ])("hides the road to the cup when pragmaticplaylivecasino is %s", async (_, providers) => {
    renderLiveCasino(providers);
    await screen.findByTestId("tile-evolution");
    expect(screen.queryByTestId("road-to-the-cup")).toBeNull();
  });
});
