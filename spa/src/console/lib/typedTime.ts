/**
 * Dates and times an operator types into a filter (the trail's, the timeline's): written in the
 * console's language's own order (es and pt day first, en month first), whatever the browser's
 * locale, and read in UTC, the zone every time on the console is shown in (`lib/format.ts`) and
 * the trail's export is written in.
 */

type Part = "day" | "month" | "year" | "hour" | "minute";

const DATE_PARTS: Part[] = ["day", "month", "year"];
const EXAMPLE = new Date(Date.UTC(2026, 10, 26, 9, 5));

function written(lng: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(lng, {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC",
  });
}

/** How a time is written in `lng` (the fields' placeholder and hint), e.g. "26/11/2026, 09:05". */
export function timeExample(lng: string): string {
  return written(lng).format(EXAMPLE);
}

/** `iso` (or epoch milliseconds) written as `lng` writes it, in UTC: what a filter's field shows. */
export function typedTime(at: string | number, lng: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "" : written(lng).format(date);
}

function dateOrder(lng: string): Part[] {
  const types = written(lng).formatToParts(EXAMPLE).map((part) => part.type);
  return types.filter((type): type is Part => DATE_PARTS.includes(type as Part));
}

/**
 * A time typed in `lng`'s order (the date, then optionally hours and minutes; any separators), in
 * UTC, as ISO 8601. `undefined` for nothing typed, `null` for what is not a time (a field error).
 */
export function typedTimeToIso(text: string, lng: string): string | null | undefined {
  if (!text.trim()) return undefined;
  const numbers = (text.match(/\d+/g) ?? []).map(Number);
  if (numbers.length !== 3 && numbers.length !== 5) return null;
  const value: Record<Part, number> = { day: 0, month: 0, year: 0, hour: 0, minute: 0 };
  dateOrder(lng).forEach((part, index) => (value[part] = numbers[index] ?? 0));
  [value.hour, value.minute] = [numbers[3] ?? 0, numbers[4] ?? 0];
  const at = new Date(Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute));
  const exact = at.getUTCFullYear() === value.year && at.getUTCMonth() === value.month - 1 && at.getUTCDate() === value.day
    && at.getUTCHours() === value.hour && at.getUTCMinutes() === value.minute;
  return exact && value.year >= 1000 ? at.toISOString() : null;
}

export type TimeName = "since" | "until";

/** A filter's two times as typed: each as ISO 8601 (undefined when empty), and which of them could
 * not be read (their fields' errors: nothing is sent while there is one). */
export function typedRange(since: string, until: string, lng: string): { since?: string; until?: string; unread: TimeName[] } {
  const read = { since: typedTimeToIso(since, lng), until: typedTimeToIso(until, lng) };
  const unread = (["since", "until"] as const).filter((name) => read[name] === null);
  return { since: read.since ?? undefined, until: read.until ?? undefined, unread };
}
