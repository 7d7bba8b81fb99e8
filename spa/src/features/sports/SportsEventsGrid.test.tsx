import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { skinConfig, soccerEvent as soccer, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { SportsEventsGrid } from "./SportsEventsGrid";
import { STORED_EVENT, STORED_SELECTION } from "./StoredBetslip";

function render() {
  const fetchMock = stubBff({
    "/bff/config": skinConfig,
    "/bff/session": { loggedIn: true, login: "demo1" },
    "/sbapi/sports/events": { totalCount: 1, events: [soccer] },
    "/sbapi/bets/betslip": { success: true, selections: [{ eventId: "e1", selectionId: "s-Home", odds: 2.3 }], totalOdds: 2.3, potentialWin: 0 },
  });
  renderWithProviders(<SportsEventsGrid />, { route: "/games/sports" });
  return fetchMock;
}

const betslipCalls = (fetchMock: ReturnType<typeof stubBff>) =>
  fetchMock.mock.calls.map(([r]) => r as Request).filter((r) => new URL(r.url).pathname === "/sbapi/bets/betslip");

afterEach(() => localStorage.clear());

describe("SportsEventsGrid", () => {
  it("puts the carousel's stored selection on the betslip once, then clears it", async () => {
    localStorage.setItem(STORED_SELECTION, "s-Home");
    localStorage.setItem(STORED_EVENT, "e1");
    const fetchMock = render();
    const slip = await screen.findByTestId("betslip");
    expect(slip).toHaveTextContent("River vs Boca · Local · 2.30");
    expect(screen.getByTestId("betslip-total")).toHaveTextContent("Cuota total: 2.30");
    const calls = betslipCalls(fetchMock);
    expect(calls).toHaveLength(1);
    expect(await calls[0]!.json()).toEqual({ selections: [{ eventId: "e1", selectionId: "s-Home", odds: 2.25 }] });
    expect(localStorage.getItem(STORED_SELECTION)).toBeNull();
    expect(localStorage.getItem(STORED_EVENT)).toBeNull();
  });

  it("opens no betslip when nothing was stored", async () => {
    const fetchMock = render();
    await screen.findAllByTestId("sport-card");
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(0));
    expect(betslipCalls(fetchMock)).toHaveLength(0);
    expect(screen.queryByTestId("betslip")).toBeNull();
  });
});
