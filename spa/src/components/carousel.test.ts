import { describe, expect, it } from "vitest";

import { cardsInView, nextIndex, offsetFor, prevIndex, rowGames } from "./carousel";

describe("carousel arithmetic", () => {
  it("moves one card and its 10 px gap: the track's width plus a gap, shared by the cards in view", () => {
    expect(offsetFor(0, 5)).toBe("translateX(calc(0 * (100% + 10px) / 5))");
    expect(offsetFor(3, 7)).toBe("translateX(calc(-3 * (100% + 10px) / 7))");
  });

  it.each([
    [320, 2],
    [390, 2],
    [550, 2],
    [551, 3],
    [767, 3],
    [768, 5],
    [990, 5],
    [991, 6],
    [1199, 6],
    [1200, 7],
    [1920, 7],
  ])("shows the spec's 2, 3, 5, 6 or 7 cards: %i px wide, %i", (width, cards) => {
    expect(cardsInView(width)).toBe(cards);
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
