import { describe, expect, it } from "vitest";

import { defaultRange, depositStatus, moneyFromText, pageCount, pageOf, rangeProblem, requestDate } from "./dates";

describe("history dates", () => {
  const today = new Date(2026, 10, 23); // 23 Nov 2026, local

  it("defaults to 7 days back for transactions and 1 day back for games, ending today", () => {
    expect(defaultRange(7, today)).toEqual({ start: "2026-11-16", end: "2026-11-23" });
    expect(defaultRange(1, today)).toEqual({ start: "2026-11-22", end: "2026-11-23" });
    expect(defaultRange(7, new Date(2026, 0, 3))).toEqual({ start: "2025-12-27", end: "2026-01-03" });
  });

  it("sends DD-MM-YYYY", () => {
    expect(requestDate("2026-01-05")).toBe("05-01-2026");
  });

  it("needs both dates, none after today, the start not after the end", () => {
    expect(rangeProblem("", "2026-11-23", "2026-11-23")).toBe("selectStart");
    expect(rangeProblem("2026-11-20", "", "2026-11-23")).toBe("selectEnd");
    expect(rangeProblem("2026-11-20", "2026-11-24", "2026-11-23")).toBe("range");
    expect(rangeProblem("2026-11-22", "2026-11-21", "2026-11-23")).toBe("range");
    expect(rangeProblem("2026-11-23", "2026-11-23", "2026-11-23")).toBeNull();
  });
});

describe("history values", () => {
  it("parses the game history's Bs. text", () => {
    expect(moneyFromText("Bs. 1,234.50")).toBe(1234.5);
    expect(moneyFromText("Bs. 0.00")).toBe(0);
    expect(moneyFromText("bs.12")).toBe(12);
    expect(moneyFromText("")).toBe(0);
    expect(moneyFromText("n/a")).toBe(0);
  });

  it("shows Locked deposits as Failed", () => {
    expect(depositStatus("Locked")).toBe("Failed");
    expect(depositStatus("Approved")).toBe("Approved");
  });

  it("pages rows", () => {
    const rows = Array.from({ length: 12 }, (_, i) => i);
    expect(pageOf(rows, 1, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(pageOf(rows, 3, 5)).toEqual([10, 11]);
    expect(pageCount(12, 5)).toBe(3);
    expect(pageCount(0, 5)).toBe(1);
  });
});
