import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { MyBalanceScreen } from "./MyBalanceScreen";

const money = (value: number) => ({ value });
const balance = {
  success: true,
  values: [
    { wallet: { id: 1, name: "ARS" }, symbol: "$", preferred: true, cash: money(5000), bonus: money(250.5), cashInPlay: money(10) },
    { wallet: { id: 3, name: "COMPPOINTS" }, symbol: "CP", cash: money(1200), bonus: money(0), cashInPlay: money(0) },
  ],
};
const levels = {
  success: true,
  playerLevelResponses: [
    { name: "Bronze", period: "Hour", compPoints: 0 },
    { name: "Silver", period: "Week", compPoints: 1000 },
    { name: "Gold", period: "Month", compPoints: 5000 },
  ],
  weeklyCounter: { compPoints: 1200, endDate: "2026-11-29T23:59:59+05:30" },
  monthlyCounter: { compPoints: 1200, endDate: "2026-11-30T23:59:59+05:30" },
};

function render(playerLevels: unknown = levels, balanceReply: unknown = balance, stats: unknown = { success: true, totalBets: 1234.5, totalWins: 980, gamesPlayed: 1520 }) {
  const fetchMock = stubBff({
    "/bff/config": skinConfig,
    "/bff/session": { loggedIn: true, login: "demo1" },
    "/api/cashier/balance": balanceReply,
    "/api/cp/playerLevels": playerLevels,
    "/api/cp/exchangeRates": { success: true, rates: [{ currency: "ARS", compPoints: 100, rate: 1, minimumPoints: 1000 }] },
    "/api/cp/exchange": { success: true, cashCredited: 11, compPointsLeft: 100 },
    "/api/player/getStats": stats,
  });
  renderWithProviders(<MyBalanceScreen />);
  return fetchMock;
}

describe("MyBalanceScreen", () => {
  it("shows the player's lifetime stats, in the skin's money and the language's grouping", async () => {
    render();
    const stats = await screen.findByTestId("player-stats");
    expect(screen.getByRole("heading", { name: "Tu juego" })).toBeInTheDocument();
    expect(stats).toHaveTextContent("Partidas jugadas1.520");
    expect(stats).toHaveTextContent("Total apostado$ 1.234,50");
    expect(stats).toHaveTextContent("Total ganado$ 980,00");
  });

  it("shows no stats when the platform refuses them", async () => {
    const fetchMock = render(levels, balance, { success: false, code: "STATS_DOWN" });
    await screen.findByTestId("vip-points");
    const asked = () => fetchMock.mock.calls.some(([r]) => new URL((r as Request).url).pathname === "/api/player/getStats");
    await waitFor(() => expect(asked()).toBe(true));
    await new Promise((settled) => setTimeout(settled, 50));
    expect(screen.queryByTestId("player-stats")).toBeNull();
  });

  it("shows the level reached last, the balances and the next target", async () => {
    render();
    // The cells are there (showing "—") before the answers are: wait for the answers, not the cells.
    await waitFor(() => expect(screen.getByTestId("vip-level")).toHaveTextContent("Silver"));
    await waitFor(() => expect(screen.getByTestId("balance-available")).toHaveTextContent("$ 5.000,00"));
    expect(screen.getByTestId("balance-total")).toHaveTextContent("$ 5.260,50");
    expect(await screen.findByTestId("vip-targets")).toHaveTextContent(/Gold.*3[.,]?800.*\(IST\)/);
  });

  it("shows the cash before the exchange is confirmed, and sends it once with an Idempotency-Key", async () => {
    const fetchMock = render();
    await screen.findByText(/mínimo 1\.000/);
    const input = screen.getByTestId("vip-exchange-points");
    fireEvent.change(input, { target: { value: "500" } });
    expect(screen.getByText(i18n.t("account:vip.minimum", { points: "1.000" }))).toBeInTheDocument();
    fireEvent.change(input, { target: { value: "1100" } });
    fireEvent.click(screen.getByTestId("vip-exchange"));
    expect(await screen.findByRole("status")).toHaveTextContent("$ 11,00");
    fireEvent.click(screen.getByTestId("vip-exchange"));
    await waitFor(() => {
      const calls = fetchMock.mock.calls.filter(([r]) => new URL((r as Request).url).pathname === "/api/cp/exchange");
      expect(calls).toHaveLength(1);
      expect((calls[0]![0] as Request).headers.get("Idempotency-Key")).toMatch(/.{16,}/);
    });
  });

  it("groups every count of points the same way, four digits or five", async () => {
    const yearly = { ...levels, playerLevelResponses: [...levels.playerLevelResponses, { name: "Platinum", period: "Year", compPoints: 25000 }], yearkyCounter: { compPoints: 1200, endDate: "2026-12-31T23:59:59+05:30" } };
    render(yearly);
    const targets = await screen.findByTestId("vip-targets");
    expect(targets).toHaveTextContent("Gold: faltan 3.800 puntos");
    expect(targets).toHaveTextContent("Platinum: faltan 23.800 puntos");
    expect(screen.getByTestId("vip-points")).toHaveTextContent("Tienes 1.200 puntos VIP.");
    expect(await screen.findByText(/100 puntos = \$ 1,00 · mínimo 1\.000 puntos/)).toBeInTheDocument();
  });

  it("shows the player-level failure's code, or 'Unknown error' when it has none", async () => {
    render({ success: false, code: "LEVELS_DOWN" });
    expect(await screen.findByTestId("vip-level-error")).toHaveTextContent("No pudimos leer tu nivel VIP: LEVELS_DOWN");
    expect(screen.getByTestId("vip-level")).toHaveTextContent("—");
  });

  it("says 'Unknown error' for a refusal without a code", async () => {
    render({ success: false, description: "no levels" });
    expect(await screen.findByTestId("vip-level-error")).toHaveTextContent("No pudimos leer tu nivel VIP: Error desconocido");
  });

  it("shows the description of a balance the platform refuses", async () => {
    render(levels, { success: false, code: "WALLET_UNAVAILABLE", description: "Wallet service is not available" });
    expect(await screen.findByTestId("balance-error")).toHaveTextContent("Wallet service is not available");
  });
});
