/** Carousel arithmetic: one card is 225 px, the gap 10 px. */
export const CARD_WIDTH = 225;
export const CARD_GAP = 10;
export const STEP = CARD_WIDTH + CARD_GAP;
/** A provider's game row shows this many games until its right arrow expands it. */
export const ROW_PREVIEW = 8;

/** How many whole cards fit in a track `width` px wide (at least one). */
export function visibleCards(width: number): number {
  return Math.max(1, Math.floor((width + CARD_GAP) / STEP));
}

/** The first card shown after "next": one card on, back to the start once the last card is in view. */
export function nextIndex(index: number, count: number, visible: number): number {
  return index + visible >= count ? 0 : index + 1;
}

/** The first card shown after "prev": one card back, never before the start. */
export function prevIndex(index: number): number {
  return Math.max(0, index - 1);
}

/** The track's offset in px for a first card `index`. */
export function offsetFor(index: number): number {
  return -index * STEP;
}

/** A game row: the first eight until expanded, then the whole list. */
export function rowGames<T>(games: readonly T[], expanded: boolean): readonly T[] {
  return expanded ? games : games.slice(0, ROW_PREVIEW);
}
