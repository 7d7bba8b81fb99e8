import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import type { Game } from "../../api/contracts.gen";
import i18n from "../../i18n";
import { loggedOut, skinConfig, soccerEvent as soccer, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { TOP_WAIT_MS } from "../../features/lobby/useLobbyTop";
import { HomeScreen } from "./HomeScreen";

const media = (url: string) => ({ url, alternativeText: url, width: 1600, height: 500 });
const games: Game[] = Array.from({ length: 12 }, (_, n) => ({
  gameId: `g${n}`,
  gameName: `Game ${n}`,
  name: `Game ${n}`,
  Id: String(1000 + n),
  media: `/capi/uploads/g${n}.svg`,
  mediaPP: `/capi/uploads/c${n}.svg`,
  status: n === 1 ? 1 : 0,
  provider: "rubyplay",
}));

function home(session: unknown = loggedOut) {
  const fetchMock = stubBff({
    "/bff/config": skinConfig,
    "/bff/session": session,
    "/capi/home-banners": {
      data: [
        { id: 1, routerLink: "/games/slots", status: "active", locale: "es", heroBanner: media("/hero-es.svg") },
        { id: 2, routerLink: "/promotions", status: "inactive", locale: "es", heroBanner: media("/hero-off.svg") },
        { id: 3, routerLink: "/promotions", status: "active", locale: "en", heroBanner: media("/hero-en.svg") },
      ],
    },
    "/capi/games-lists": { data: [{ id: 1, gameProviderName: "rubyplay", status: "active", locale: "es", gamesList: games }] },
    "/sbapi/sports/events": { totalCount: 1, events: [soccer] },
  });
  const view = renderWithProviders(<HomeScreen />, { route: "/home" });
  return { fetchMock, ...view };
}

/** The hero's art arrives (jsdom loads no images); the lobby banners answered 404, so none. */
async function bannersShown() {
  fireEvent.load(await screen.findByAltText("/hero-es.svg"));
}

const requested = (fetchMock: ReturnType<typeof home>["fetchMock"], path: string) =>
  fetchMock.mock.calls.some(([request]) => new URL((request as Request).url).pathname === path);

describe("HomeScreen", () => {
  it("shows only the active hero banners of the current language", async () => {
    home();
    expect(await screen.findByAltText("/hero-es.svg")).toBeInTheDocument();
    expect(screen.queryByAltText("/hero-off.svg")).toBeNull();
    expect(screen.queryByAltText("/hero-en.svg")).toBeNull();
    expect(screen.getByRole("heading", { level: 1, name: "Casino Sandbox" })).toBeInTheDocument();
  });

  it("asks the CMS for active entries in the current language", async () => {
    const { fetchMock } = home();
    await screen.findByAltText("/hero-es.svg");
    const url = fetchMock.mock.calls
      .map(([request]) => new URL((request as Request).url))
      .find((u) => u.pathname === "/capi/home-banners");
    expect(url?.searchParams.get("filters[locale][$eq]")).toBe("es");
    expect(url?.searchParams.get("filters[status][$eq]")).toBe("active");
  });

  it("asks for the rows under the banners only once the banners are on screen", async () => {
    const { fetchMock } = home();
    const hero = await screen.findByAltText("/hero-es.svg");
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(requested(fetchMock, "/sbapi/sports/events")).toBe(false);
    expect(requested(fetchMock, "/capi/games-lists")).toBe(false);
    fireEvent.load(hero);
    expect(await screen.findByTestId("games-row-rubyplay")).toBeInTheDocument();
    expect(requested(fetchMock, "/sbapi/sports/events")).toBe(true);
  });

  it("shows the rows anyway when the banners' art never arrives", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      home();
      await screen.findByAltText("/hero-es.svg");
      await act(() => vi.advanceTimersByTimeAsync(TOP_WAIT_MS));
      expect(await screen.findByTestId("games-row-rubyplay")).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows eight games per row with a NEW label, and the full list after the right arrow", async () => {
    home();
    await bannersShown();
    const row = await screen.findByTestId("games-row-rubyplay");
    expect(within(row).getAllByTestId("game-card")).toHaveLength(8);
    expect(within(row).getByText(i18n.t("lobby:games.new"))).toBeInTheDocument();
    fireEvent.click(within(row).getByTestId("carousel-next"));
    expect(within(row).getAllByTestId("game-card")).toHaveLength(12);
    // jsdom's window is 1024 px wide: six cards in view, the track moves by one of them
    expect(row.querySelector(".carousel__track")?.getAttribute("style")).toContain("translateX(calc(-1 * (100% + 10px) / 6))");
  });

  it("opens the login popup when a visitor clicks a game or a bet", async () => {
    const { store } = home();
    await bannersShown();
    const row = await screen.findByTestId("games-row-rubyplay");
    fireEvent.click(within(row).getAllByTestId("game-card")[0]!);
    expect(store.getState().ui.auth).toEqual({ open: true, tab: "login" });
  });

  it("shows a soccer card with its 1X2 odds", async () => {
    home();
    await bannersShown();
    const card = await screen.findByTestId("sport-card");
    expect(within(card).getByText("River")).toBeInTheDocument();
    expect(within(card).getAllByRole("button")).toHaveLength(3);
  });

  it("says so when the BFF cannot give the config", async () => {
    stubBff({ "/bff/session": loggedOut });
    renderWithProviders(<HomeScreen />, { route: "/home" });
    expect(await screen.findByText(i18n.t("status.configUnavailable"))).toBeInTheDocument();
  });
});
