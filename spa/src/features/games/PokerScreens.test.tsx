import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { loggedOut, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { FLASH_LOBBY, PokerScreen } from "./PokerScreens";

const tournaments = {
  success: true,
  tournamentList: [{ id: "t1", name: "Sunday Million", startDate: "2026-11-29T20:00:00+00:00", buyIn: 500, prizePool: 100000 }],
};

describe("poker page", () => {
  it("opens the flash poker lobby in its 800x600 window for a player", async () => {
    const open = vi.fn();
    vi.stubGlobal("open", open);
    stubBff({ "/bff/config": skinConfig, "/bff/session": { loggedIn: true, login: "demo1" }, "/api/player/getPokerTournamentsList": tournaments });
    renderWithProviders(<PokerScreen />, { route: "/poker" });
    await waitFor(() => expect(screen.getByTestId("poker-tournaments")).toBeInTheDocument());
    await userEvent.click(screen.getByTestId("poker-flash-lobby"));
    expect(open).toHaveBeenCalledWith("/lobby/lobbyflash.html", "lobbyflash", "width=800,height=600");
    expect(FLASH_LOBBY.features).toBe("width=800,height=600");
  });

  it("lists a player's poker tournaments with buy-in and prize pool", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": { loggedIn: true, login: "demo1" }, "/api/player/getPokerTournamentsList": tournaments });
    renderWithProviders(<PokerScreen />, { route: "/poker" });
    const list = await screen.findByTestId("poker-tournaments");
    expect(within(list).getByText("Sunday Million")).toBeInTheDocument();
    expect(list).toHaveTextContent("$ 100.000,00");
  });

  it("gives a visitor the login popup instead of the flash lobby", async () => {
    const open = vi.fn();
    vi.stubGlobal("open", open);
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });
    const { store } = renderWithProviders(<PokerScreen />, { route: "/poker" });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await userEvent.click(screen.getByTestId("poker-flash-lobby"));
    expect(open).not.toHaveBeenCalled();
    expect(store.getState().ui.auth.open).toBe(true);
    expect(screen.queryByTestId("poker-tournaments")).not.toBeInTheDocument();
  });
});
