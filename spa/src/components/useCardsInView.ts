import { useSyncExternalStore } from "react";

import { CARDS_BY_SCREEN } from "./carousel";

// The breakpoints are asked as media queries, not through `window.innerWidth`: on a page with a
// viewport tag (every phone, and Lighthouse's mobile profile) reading `innerWidth` makes the
// browser lay the whole page out first, and React reads a store's snapshot on every render of
// every carousel and again after each commit. On /home at 4x CPU that was 190-310 ms of forced
// layouts inside the lobby's renders (issue 40, from 6fd0b0b). A media
// query's `matches` lays nothing out in a top-level document.
let queries: (readonly [query: MediaQueryList, cards: number])[] | undefined;

function breakpoints(): readonly (readonly [query: MediaQueryList, cards: number])[] {
  queries ??= CARDS_BY_SCREEN.filter(([maxWidth]) => maxWidth !== Infinity).map(
    ([maxWidth, cards]) => [window.matchMedia(`(max-width: ${maxWidth}px)`), cards] as const,
  );
  return queries;
}

/** The widest screen's count: no breakpoint's query matches. */
const WIDEST = CARDS_BY_SCREEN[CARDS_BY_SCREEN.length - 1]![1];

function subscribe(onChange: () => void): () => void {
  const lists = breakpoints().map(([query]) => query);
  for (const list of lists) list.addEventListener("change", onChange);
  return () => {
    for (const list of lists) list.removeEventListener("change", onChange);
  };
}

function snapshot(): number {
  return breakpoints().find(([query]) => query.matches)?.[1] ?? WIDEST;
}

/** The cards a carousel shows at the screen's width now (the spec's breakpoints, `carousel.ts`),
 * kept current as the width crosses one. */
export function useCardsInView(): number {
  return useSyncExternalStore(subscribe, snapshot);
}
