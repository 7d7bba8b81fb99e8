import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { isoDay } from "./dates";
import { GameHistoryScreen, TransactionHistoryScreen } from "./HistoryScreens";

const player = { loggedIn: true, login: "demo1" };
const deposits = Array.from({ length: 7 }, (_, n) => ({
  startDate: `2026-11-2${n % 3}T10:00:00Z`,
  cashAmount: 1000 + n,
  bonus: 0,
  status: n === 0 ? "Locked" : "Approved",
  seque_no: `S${n}`,
}));

async function bodyOf(fetchMock: ReturnType<typeof stubBff>, path: string): Promise<Record<string, unknown>> {
  const call = fetchMock.mock.calls.find(([request]) => new URL((request as Request).url).pathname === path);
  return (await (call?.[0] as Request).clone().json()) as Record<string, unknown>;
}

describe("TransactionHistoryScreen", () => {
  it("shows the last week on arrival, Locked as Failed (in the player's language), five rows a page", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/transactionCheck": { success: true, deposits, cashouts: [] } });
    renderWithProviders(<TransactionHistoryScreen />);
    const table = await screen.findByTestId("history-deposits-table");
    expect(within(table).getAllByRole("row")).toHaveLength(6);
    expect(within(table).getByText(i18n.t("common:statuses.Failed"))).toBeInTheDocument();
    expect(within(table).getAllByText("Aprobado")).toHaveLength(4);
    expect(screen.queryByTestId("history-cashouts-table")).toBeNull();
    fireEvent.change(screen.getByLabelText(i18n.t("history:pager.size")), { target: { value: "15" } });
    expect(within(table).getAllByRole("row")).toHaveLength(8);
  });

  it("says each cashout's status in the player's language, and one it does not know as sent", async () => {
    const cashouts = ["Paid", "Cancelled", "Reversed"].map((status, n) => ({
      createdOn: `2026-11-2${n}T10:00:00Z`,
      amount: 500,
      cancelledAmount: 0,
      paidAmount: 0,
      status,
      cashoutId: `C${n}`,
    }));
    stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/transactionCheck": { success: true, deposits: [], cashouts } });
    renderWithProviders(<TransactionHistoryScreen />);
    const table = await screen.findByTestId("history-cashouts-table");
    const statuses = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => within(row).getAllByRole("cell").at(-1)?.textContent);
    expect(statuses.sort()).toEqual(["Cancelado", "Pagado", "Reversed"]);
  });

  it("says so when nothing happened in the period", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/transactionCheck": { success: true, deposits: [], cashouts: [] } });
    renderWithProviders(<TransactionHistoryScreen />);
    expect(await screen.findByTestId("history-empty")).toHaveTextContent(i18n.t("history:empty"));
  });

  it("needs a type and a range that ends by today", () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/transactionCheck": { success: true } });
    renderWithProviders(<TransactionHistoryScreen />);
    fireEvent.click(screen.getByTestId("history-deposits"));
    fireEvent.click(screen.getByTestId("history-cashout"));
    expect(screen.getByText(i18n.t("history:transactions.pickType"))).toBeInTheDocument();
    expect(screen.getByTestId("history-show")).toBeDisabled();
    fireEvent.click(screen.getByTestId("history-deposits"));
    fireEvent.change(screen.getByTestId("history-end"), { target: { value: "2999-01-01" } });
    expect(screen.getByText(i18n.t("history:dates.transactionRange"))).toBeInTheDocument();
    expect(screen.getByTestId("history-show")).toBeDisabled();
  });

  it("asks with DD-MM-YYYY dates and the checked types", async () => {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/transactionCheck": { success: true } });
    renderWithProviders(<TransactionHistoryScreen />);
    await screen.findByTestId("history-empty");
    const body = await bodyOf(fetchMock, "/api/history/transactionCheck");
    expect(body).toMatchObject({ type: "Deposits,Cashout", limit: 100, index: 0, currency: "ARS" });
    expect(String(body.startDate)).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  });
});

describe("a new period", () => {
  /** The first answer for the history's path, then a refusal of the gateway (HTTP 502) for any other period. */
  function firstThenFailing(path: string, first: unknown) {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": player, [path]: first });
    const answer = fetchMock.getMockImplementation()!;
    let asked = 0;
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      if (new URL((input as Request).url).pathname !== path || asked++ === 0) return answer(input);
      return Response.json({ message: "Upstream unavailable" }, { status: 502 });
    });
  }

  function askAnotherPeriod() {
    fireEvent.change(screen.getByTestId("history-start"), { target: { value: isoDay(new Date(Date.now() - 3 * 86_400_000)) } });
    fireEvent.click(screen.getByTestId("history-show"));
  }

  it("clears the last period's deposits: a failed request shows its error, not the old rows", async () => {
    firstThenFailing("/api/history/transactionCheck", { success: true, deposits, cashouts: [] });
    renderWithProviders(<TransactionHistoryScreen />);
    await screen.findByTestId("history-deposits-table");
    askAnotherPeriod();
    expect(await screen.findByRole("alert")).toBeInTheDocument();
    expect(screen.queryByTestId("history-deposits-table")).toBeNull();
  });

  it("clears the last period's game rounds: a failed request shows its error, not the old rows", async () => {
    const round = { from: "2026-11-22T10:00:00Z", to: "2026-11-22T10:00:00Z", name: "Old round", initialBalance: "Bs. 1.00", bet: "Bs. 1.00", buyIn: "Bs. 0.00", payouts: "Bs. 0.00", win: "Bs. 0.00", closingBalance: "Bs. 0.00" };
    firstThenFailing("/api/history/game", { success: true, total: 1, values: [round] });
    renderWithProviders(<GameHistoryScreen />);
    await screen.findByTestId("history-games-table");
    askAnotherPeriod();
    expect(await screen.findByRole("alert")).toBeInTheDocument();
    expect(screen.queryByTestId("history-games-table")).toBeNull();
    expect(screen.queryByText("Old round")).toBeNull();
  });
});

describe("GameHistoryScreen", () => {
  it("lists rounds newest first with the Bs. text as money", async () => {
    const round = (name: string, from: string) => ({
      from, to: from, name, initialBalance: "Bs. 1,000.00", bet: "Bs. 10.00", buyIn: "Bs. 0.00",
      payouts: "Bs. 0.00", win: "Bs. 25.50", closingBalance: "Bs. 1,015.50",
    }); // prettier-ignore
    stubBff({
      "/bff/config": skinConfig,
      "/bff/session": player,
      "/api/history/game": { success: true, total: 2, values: [round("Older", "2026-11-22T10:00:00Z"), round("Newer", "2026-11-22T11:00:00Z")] },
    });
    renderWithProviders(<GameHistoryScreen />);
    const table = await screen.findByTestId("history-games-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("Newer");
    expect(rows[0]).toHaveTextContent("$ 1.015,50");
    expect(rows[1]).toHaveTextContent("Older");
  });

  it("shows the no-history message when the total is 0", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": player, "/api/history/game": { success: true, total: 0, values: [] } });
    renderWithProviders(<GameHistoryScreen />);
    expect(await screen.findByTestId("history-empty")).toBeInTheDocument();
  });

  it("lists remote games in their own tab, newest first, asked with the same period", async () => {
    const game = (gameName: string, date: string) => ({ gameName, provider: "evoplay", date, bet: 10, win: 25.5 });
    const fetchMock = stubBff({
      "/bff/config": skinConfig,
      "/bff/session": player,
      "/api/history/game": { success: true, total: 0, values: [] },
      "/api/history/remoteGames": { success: true, values: [game("Older", "2026-11-22T10:00:00Z"), game("Newer", "2026-11-22T11:00:00Z")] },
    });
    renderWithProviders(<GameHistoryScreen />);
    await screen.findByTestId("history-empty");
    fireEvent.click(screen.getByRole("tab", { name: i18n.t("history:games.tabs.remote") }));
    const table = await screen.findByTestId("history-remote-table");
    expect(screen.getByTestId("history-tab-remote")).toHaveAttribute("aria-selected", "true");
    expect(within(table).getByRole("columnheader", { name: "Proveedor" })).toBeInTheDocument();
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("Newer");
    expect(rows[0]).toHaveTextContent("evoplay");
    expect(rows[0]).toHaveTextContent("$ 25,50");
    expect(rows[1]).toHaveTextContent("Older");
    const casino = await bodyOf(fetchMock, "/api/history/game");
    expect(await bodyOf(fetchMock, "/api/history/remoteGames")).toEqual(casino);
    fireEvent.click(screen.getByTestId("history-tab-casino"));
    expect(await screen.findByTestId("history-empty")).toBeInTheDocument();
    expect(screen.queryByTestId("history-remote-table")).toBeNull();
  });
});
