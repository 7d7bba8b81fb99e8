import { describe, expect, it } from "vitest";

import type { Market, Selection, SportEvent } from "../../api/contracts.gen";
import { eventCards, eventDate } from "./events";

const pick = (outcomeType: string): Selection => ({ _id: outcomeType, outcomeType, trueOdds: 2, name: outcomeType });

function event(sportName: string, outcomes: string[], marketType = "ML0"): SportEvent {
  const market: Market = {
    _id: `${sportName}-m`,
    marketType: { _id: marketType },
    startDate: "2026-11-24T01:30:00Z",
    homeTeam: "Home FC",
    awayTeam: "Away FC",
    selections: outcomes.map(pick),
  };
  return { _id: `${sportName}-${outcomes.join("")}-${marketType}`, leagueName: "L", sportName, startEventDate: market.startDate, markets: [market] };
}

describe("eventCards", () => {
  it("keeps soccer with Tie, Home, Away in that order and two-way basketball and tennis", () => {
    const cards = eventCards([event("Soccer", ["Tie", "Home", "Away"]), event("Basketball", ["Home", "Away"]), event("Tennis", ["Home", "Away"])]);
    expect(cards.map((c) => c.event.sportName)).toEqual(["Soccer", "Basketball", "Tennis"]);
    expect(cards[0]?.selections.map((s) => s.outcomeType)).toEqual(["Tie", "Home", "Away"]);
  });

  it("drops soccer without the tie or in another order", () => {
    expect(eventCards([event("Soccer", ["Home", "Away"]), event("Soccer", ["Home", "Tie", "Away"])])).toEqual([]);
  });

  it("drops two-way sports missing a side, or with a tie", () => {
    expect(eventCards([event("Tennis", ["Home"]), event("Basketball", ["Home", "Tie", "Away"])])).toEqual([]);
  });

  it("shows only the ML0 market and drops events without it", () => {
    const withSideMarket = event("Tennis", ["Home", "Away"]);
    withSideMarket.markets.unshift({ ...withSideMarket.markets[0]!, _id: "side", marketType: { _id: "OU1" } });
    expect(eventCards([withSideMarket])[0]?.market._id).toBe("Tennis-m");
    expect(eventCards([event("Soccer", ["Tie", "Home", "Away"], "OU1")])).toEqual([]);
  });

  it("leaves out other sports", () => {
    expect(eventCards([event("Golf", ["Home", "Away"])])).toEqual([]);
  });
});

describe("eventDate", () => {
  it("formats EEE, MMM d, hh:mm a in each language", () => {
    expect(eventDate("2026-11-24T13:05:00Z", "en", "UTC")).toBe("Tue, Nov 24, 01:05 PM");
    expect(eventDate("2026-11-24T13:05:00Z", "es", "UTC")).toMatch(/^Mar, Nov 24, 01:05 p\.\s?m\.$/);
    expect(eventDate("2026-11-24T01:05:00Z", "pt", "UTC")).toMatch(/^Ter, Nov 24, 01:05/);
  });
});
