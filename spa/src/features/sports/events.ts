import type { Market, Selection, SportEvent } from "../../api/contracts.gen";

/** The main win market (1X2 / moneyline): the only one the home cards show. */
export const MAIN_MARKET = "ML0";

/** The outcomes a card needs, in order: soccer 1X2, the others two-way. */
const OUTCOMES: Record<string, readonly string[]> = {
  soccer: ["Tie", "Home", "Away"],
  football: ["Tie", "Home", "Away"],
  basketball: ["Home", "Away"],
  tennis: ["Home", "Away"],
};

/** One card of the sports carousel: an event with its ML0 market and its selections in spec order. */
export interface EventCard {
  event: SportEvent;
  market: Market;
  selections: Selection[];
}

function hasOutcomesInOrder(selections: readonly Selection[], wanted: readonly string[]): boolean {
  return selections.length === wanted.length && wanted.every((outcome, i) => selections[i]?.outcomeType === outcome);
}

/**
 * The events a card can show: only soccer, basketball and tennis; only the ML0 market;
 * soccer needs Tie, Home and Away in that order, basketball and tennis Home and Away.
 * Anything else (a missing market, a missing or reordered selection) is left out.
 */
export function eventCards(events: readonly SportEvent[]): EventCard[] {
  const cards: EventCard[] = [];
  for (const event of events) {
    const wanted = OUTCOMES[event.sportName.toLowerCase()];
    if (!wanted) continue;
    const market = event.markets.find((m) => m.marketType._id === MAIN_MARKET);
    if (!market || !hasOutcomesInOrder(market.selections, wanted)) continue;
    cards.push({ event, market, selections: market.selections });
  }
  return cards;
}

type DatePart = "weekday" | "month" | "day" | "time";

const PART_OPTIONS: Record<DatePart, Intl.DateTimeFormatOptions> = {
  weekday: { weekday: "short" },
  month: { month: "short" },
  day: { day: "numeric" },
  time: { hour: "2-digit", minute: "2-digit", hour12: true },
};

// Building an Intl.DateTimeFormat costs far more than formatting with one (a list of twenty
// events built eighty of them on every render); one per language, zone and part is enough.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(part: DatePart, locale: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${part}|${locale}|${timeZone ?? ""}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...PART_OPTIONS[part], timeZone });
    formatters.set(key, found);
  }
  return found;
}

/** `EEE, MMM d, hh:mm a` in the site's language, e.g. "Tue, Nov 24, 01:30 AM", "Mar, Nov 24, 01:30 a. m.". */
export function eventDate(iso: string, locale: string, timeZone?: string): string {
  const date = new Date(iso);
  const part = (name: DatePart) => formatter(name, locale, timeZone).format(date).replace(/\.$/, "");
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const time = formatter("time", locale, timeZone).format(date);
  return `${capital(part("weekday"))}, ${capital(part("month"))} ${part("day")}, ${time}`;
}
