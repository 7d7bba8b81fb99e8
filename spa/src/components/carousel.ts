/** Carousel arithmetic: cards sit 10 px apart; how many are in view depends on the screen. */
export const CARD_GAP = 10;
/** A provider's game row shows this many games until its right arrow expands it. */
export const ROW_PREVIEW = 8;

/**
 * The spec's breakpoints: 2, 3, 5, 6 and 7 cards in view, on screens up to 550, 767, 990 and
 * 1199 px wide and wider ones (550, 767 and 990/991 are the site's own breakpoints; 1199 the
 * step that keeps a card of a 1280-px page as wide as one of a 990-px screen).
 */
export const CARDS_BY_SCREEN: readonly (readonly [maxWidth: number, cards: number])[] = [
  [550, 2],
  [767, 3],
  [990, 5],
  [1199, 6],
  [Infinity, 7],
];

/** How many cards are in view on a screen `width` px wide. */
export function cardsInView(width: number): number {
  return CARDS_BY_SCREEN.find(([maxWidth]) => width <= maxWidth)![1];
}

/** The first card shown after "next": one card on, back to the start once the last card is in view. */
export function nextIndex(index: number, count: number, visible: number): number {
  return index + visible >= count ? 0 : index + 1;
}

/** The first card shown after "prev": one card back, never before the start. */
export function prevIndex(index: number): number {
  return Math.max(0, index - 1);
}

/** The track's shift for a first card `index`: one card's width plus the gap per card (the
 * track is as wide as its viewport, so `100%` is the width `cards` cards and their gaps share). */
export function offsetFor(index: number, cards: number): string {
  return `translateX(calc(${-index} * (100% + ${CARD_GAP}px) / ${cards}))`;
}

/** A game row: the first eight until expanded, then the whole list. */
export function rowGames<T>(games: readonly T[], expanded: boolean): readonly T[] {
  return expanded ? games : games.slice(0, ROW_PREVIEW);
}
