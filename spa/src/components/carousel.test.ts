import { describe, expect, it } from "vitest";

import { nextIndex, offsetFor, prevIndex, rowGames, STEP, visibleCards } from "./carousel";

describe("carousel arithmetic", () => {
  it("moves one card of 225 px plus the 10 px gap", () => {
    expect(STEP).toBe(235);
    expect(offsetFor(0)).toBe(-0);
    expect(offsetFor(3)).toBe(-705);
  });

  it("counts the whole cards that fit", () => {
    expect(visibleCards(225)).toBe(1);
    expect(visibleCards(459)).toBe(1);
    expect(visibleCards(460)).toBe(2);
    expect(visibleCards(1200)).toBe(5);
    expect(visibleCards(0)).toBe(1);
  });

  it("next moves by one and wraps to the start once the last card is visible", () => {
    // 10 cards, 4 visible: first cards 0..6, then back to 0
    const seen = [0];
    for (let i = 0; i < 7; i += 1) seen.push(nextIndex(seen[seen.length - 1]!, 10, 4));
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
  });

  it("next on a row that fits entirely stays at the start", () => {
    expect(nextIndex(0, 3, 4)).toBe(0);
  });

  it("prev moves back one card and stops at the start", () => {
    expect(prevIndex(3)).toBe(2);
    expect(prevIndex(0)).toBe(0);
  });

  it("a row shows the first eight games until expanded", () => {
    const games = Array.from({ length: 22 }, (_, i) => i);
    expect(rowGames(games, false)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rowGames(games, true)).toHaveLength(22);
  });
});
