import type { LaunchTarget } from "./launch";

/** The storage key of the game the full-page frame (/opentab) opens (the spec names it `gameurl`).
 * It holds what to launch, never a launch URL: provider tokens stay out of browser storage. */
export const FULL_PAGE_KEY = "gameurl";

export interface FullPageGame {
  target: LaunchTarget;
  title: string;
}

/** The stored flag that makes the full-page frame a lottery frame (the spec: "shows a
 * slots game frame or a lottery frame depending on a stored flag"); the spec does not name its key. */
export const LOTTERY_KEY = "lottery";

/** What the lottery frame launches: the evenBet sports game, the site's lottery. */
export const LOTTERY_TARGET: LaunchTarget = { kind: "sportsGame" };

export type FullPageMode = "slots" | "lottery";

/** A slots game for the full-page frame: the lottery flag is cleared. */
export function rememberFullPage(game: FullPageGame): void {
  localStorage.setItem(FULL_PAGE_KEY, JSON.stringify(game));
  localStorage.removeItem(LOTTERY_KEY);
}

/** The full-page frame opens the lottery. */
export function rememberLottery(): void {
  localStorage.setItem(LOTTERY_KEY, "true");
}

export function fullPageMode(): FullPageMode {
  return localStorage.getItem(LOTTERY_KEY) === "true" ? "lottery" : "slots";
}

export function fullPageGame(): FullPageGame | null {
  try {
    const stored = JSON.parse(localStorage.getItem(FULL_PAGE_KEY) ?? "null") as FullPageGame | null;
    return stored && typeof stored.title === "string" && stored.target && typeof stored.target.kind === "string" ? stored : null;
  } catch {
    return null;
  }
}
