import type { LaunchTarget } from "./launch";

/** The storage key of the game the full-page frame (/opentab) opens (section 3 lists `gameurl`).
 * It holds what to launch, never a launch URL: provider tokens stay out of browser storage. */
export const FULL_PAGE_KEY = "gameurl";

export interface FullPageGame {
  target: LaunchTarget;
  title: string;
}

export function rememberFullPage(game: FullPageGame): void {
  localStorage.setItem(FULL_PAGE_KEY, JSON.stringify(game));
}

export function fullPageGame(): FullPageGame | null {
  try {
    const stored = JSON.parse(localStorage.getItem(FULL_PAGE_KEY) ?? "null") as FullPageGame | null;
    return stored && typeof stored.title === "string" && stored.target && typeof stored.target.kind === "string" ? stored : null;
  } catch {
    return null;
  }
}
