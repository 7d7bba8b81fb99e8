import { describe, expect, it } from "vitest";

import type { PlayerLevelsResponse } from "../../api/contracts.gen";
import { currentLevel, exchangeValue, istDate, levelProgress, nextTargets } from "./vip";

const levels: PlayerLevelsResponse = {
  success: true,
  playerLevelResponses: [
    { name: "Bronze", period: "Hour", compPoints: 0 },
    { name: "Silver", period: "Week", compPoints: 1000 },
    { name: "Gold", period: "Month", compPoints: 5000 },
    { name: "Platinum", period: "Year", compPoints: 1100 },
  ],
  hourlyCounter: { compPoints: 0, endDate: "2026-11-23T17:00:00+05:30" },
  weeklyCounter: { compPoints: 1200, endDate: "2026-11-29T23:59:59+05:30" },
  monthlyCounter: { compPoints: 1200, endDate: "2026-11-30T23:59:59+05:30" },
  yearkyCounter: { compPoints: 1200, endDate: "2026-12-31T23:59:59+05:30" },
};

describe("VIP levels", () => {
  it("reads each level against its own period's points", () => {
    expect(levelProgress(levels).map((p) => p.reached)).toEqual([true, true, false, true]);
  });

  it("makes the last level reached the current one", () => {
    expect(currentLevel(levelProgress(levels))?.name).toBe("Platinum");
    expect(currentLevel([])).toBeNull();
  });

  it("lists the levels not reached as next targets with their end date", () => {
    const next = nextTargets(levelProgress(levels));
    expect(next.map((p) => p.level.name)).toEqual(["Gold"]);
    expect(istDate(next[0]!.counter?.endDate, "en")).toBe("Nov 30, 2026, 11:59 PM");
  });

  it("values an exchange at the shown rate, to the cent", () => {
    expect(exchangeValue(1250, 100, 1)).toBe(12.5);
    expect(exchangeValue(1001, 300, 1)).toBe(3.33);
    expect(exchangeValue(0, 100, 1)).toBe(0);
  });
});
