import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { FULL_PAGE_KEY, LOTTERY_KEY, rememberFullPage, rememberLottery } from "./fullPage";
import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { OpenTabScreen } from "./OpenTabScreen";

const slotsGame = { target: { kind: "game", game: { provider: "pragmaticplay", gameId: "vs20olympus", Id: "vs20olympus", gameName: "Gates of Olympus" } }, title: "Gates of Olympus" } as const;
const platform = {
  "/bff/config": skinConfig,
  "/bff/session": { loggedIn: true, login: "demo1" },
  "/rest/pp/ppToken/vs20olympus": { success: true, gameURL: "https://games.example/olympus" },
  "/rest/game/launch": { success: true, status: 200, gameUrl: "https://lottery.example/play?lang=en" },
};

function launched(fetchMock: ReturnType<typeof stubBff>): string[] {
  return fetchMock.mock.calls.map(([r]) => new URL((r as Request).url).pathname).filter((path) => path.startsWith("/rest/"));
}

afterEach(() => vi.unstubAllGlobals());

describe("OpenTabScreen, the game or lottery frame page", () => {
  it("shows the stored slots game when the lottery flag is not set", async () => {
    const fetchMock = stubBff(platform);
    rememberFullPage(slotsGame);
    renderWithProviders(<OpenTabScreen />);
    expect(await screen.findByTestId("opentab-frame")).toHaveAttribute("src", "https://games.example/olympus");
    expect(screen.getByTestId("opentab-slots")).toBeInTheDocument();
    expect(screen.queryByTestId("opentab-lottery")).toBeNull();
    expect(launched(fetchMock)).toEqual(["/rest/pp/ppToken/vs20olympus"]);
  });

  it("shows the lottery frame, in the site's language, when the lottery flag is stored", async () => {
    const fetchMock = stubBff(platform);
    rememberFullPage(slotsGame);
    rememberLottery();
    renderWithProviders(<OpenTabScreen />);
    const frame = await screen.findByTestId("opentab-frame");
    expect(screen.getByTestId("opentab-lottery")).toContainElement(frame);
    expect(frame).toHaveAttribute("src", "https://lottery.example/play?lang=es");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Lotería");
    expect(launched(fetchMock)).toEqual(["/rest/game/launch"]);
    const body: unknown = await (fetchMock.mock.calls.find(([r]) => new URL((r as Request).url).pathname === "/rest/game/launch")![0] as Request).clone().json();
    expect(body).toEqual({ gameMode: "", gameId: "", provider: "evenBet" });
  });

  it("shows the pulsing logo while the lottery loads, with no stored game needed", async () => {
    const answer = stubBff(platform).getMockImplementation()!;
    const pending = (input: RequestInfo | URL) => (new URL((input as Request).url).pathname === "/rest/game/launch" ? new Promise<Response>(() => undefined) : answer(input));
    vi.stubGlobal("fetch", vi.fn(pending));
    localStorage.setItem(LOTTERY_KEY, "true");
    renderWithProviders(<OpenTabScreen />);
    const loading = await screen.findByRole("status");
    await waitFor(() => expect(loading.querySelector("img")).toHaveAttribute("src", skinConfig.skin.branding.logo));
    expect(loading.closest("[data-testid=opentab-lottery]")).not.toBeNull();
    expect(localStorage.getItem(FULL_PAGE_KEY)).toBeNull();
    expect(screen.queryByText("No hay ningún juego para abrir.")).toBeNull();
  });

  it("clears the lottery flag when a slots game is chosen for the full page", () => {
    rememberLottery();
    rememberFullPage(slotsGame);
    expect(localStorage.getItem(LOTTERY_KEY)).toBeNull();
  });
});
