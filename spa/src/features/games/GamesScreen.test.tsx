import { screen, within } from "@testing-library/react";
import { Outlet, Route, Routes } from "react-router";
import { describe, expect, it, vi } from "vitest";

import { providerFlags, toSwitches } from "../../lib/providers/flags";
import { CHOSEN_PROVIDER_KEY } from "../../lib/providers/labels";
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

/** The CMS's games lists by provider and category, as the Strapi filters ask for them. */
function stubGamesLists(lists: Record<string, string[]>) {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/bff/config") return Promise.resolve(Response.json(skinConfig));
    if (url.pathname === "/bff/session") return Promise.resolve(Response.json({ loggedIn: false, login: null }));
    if (url.pathname !== "/capi/games-lists") return Promise.resolve(Response.json({}, { status: 404 }));
    const provider = url.searchParams.get("filters[gameProviderName][$eq]") ?? "";
    const category = url.searchParams.get("filters[category][$eq]");
    const key = category ? `${provider}/${category}` : provider;
    const games = (lists[key] ?? []).map((name, i) => ({ gameId: `${key}-${i}`, gameName: name, name, Id: String(i), media: "", provider }));
    const data = lists[key] ? [{ id: 1, gameProviderName: provider, category, locale: "es", status: "active", gamesList: games }] : [];
    return Promise.resolve(Response.json({ data, meta: { pagination: { page: 1, pageSize: 100, pageCount: 1, total: data.length } } }));
  });
  vi.stubGlobal("fetch", fetchMock);
}

function renderSlots(chosen: string | null) {
  if (chosen) localStorage.setItem(CHOSEN_PROVIDER_KEY, chosen);
  else localStorage.removeItem(CHOSEN_PROVIDER_KEY);
  const names = ["rubyplay", "mancala", "pragmaticplay", "habanero", "ezugi"];
  const flags = providerFlags(toSwitches(names.map((name) => ({ name, status: true }))), true);
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={flags} />}>
        <Route path="/games/slots" element={<GamesScreen category="slots" sportsEvents={null} />} />
      </Route>
    </Routes>,
    { route: "/games/slots" },
  );
}

describe("slots", () => {
  const lists = {
    rubyplay: ["Book of Ruby"],
    mancala: ["Aztec Gold"],
    pragmaticplay: ["Sweet Bonanza"],
    habanero: ["Koi Gate", "Nuwa"],
    "pragmaticplay/newpragmatic": ["Neon Nights"],
  };

  it("shows the games of any studio chosen on home, not only the three of All", async () => {
    stubGamesLists(lists);
    renderSlots("habanero");
    expect(await screen.findByText("Koi Gate")).toBeInTheDocument();
    expect(screen.getByText("Nuwa")).toBeInTheDocument();
    expect(screen.queryByText("Book of Ruby")).not.toBeInTheDocument();
    expect(screen.getByTestId("slots-provider-habanero")).toHaveAttribute("aria-pressed", "true");
  });

  it("says so when the chosen studio has no list, rather than showing every game", async () => {
    stubGamesLists(lists);
    renderSlots("ezugi");
    expect(await screen.findByTestId("slots-none")).toHaveTextContent("Ezugi");
    expect(screen.queryByText("Book of Ruby")).not.toBeInTheDocument();
  });

  it("shows the new pragmatic list beside every game", async () => {
    stubGamesLists(lists);
    renderSlots(null);
    const row = await screen.findByTestId("games-row-newpragmatic");
    expect(within(row).getByText("Neon Nights")).toBeInTheDocument();
    expect(await screen.findByText("Book of Ruby")).toBeInTheDocument();
  });
});
