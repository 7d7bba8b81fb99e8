/** History date rules. Dates are local calendar
 * days as `YYYY-MM-DD` (the date input's value); requests carry `DD-MM-YYYY`. */

export type DateProblem = "selectStart" | "selectEnd" | "range" | null;

/** Today as YYYY-MM-DD in the player's time zone. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The default range: `daysBack` days before today, to today. */
export function defaultRange(daysBack: number, today: Date = new Date()): { start: string; end: string } {
  const start = new Date(today);
  start.setDate(start.getDate() - daysBack);
  return { start: isoDay(start), end: isoDay(today) };
}

/** "2026-11-23" -> "23-11-2026". */
export function requestDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${day}-${month}-${year}`;
}

/** What is wrong with a range: a missing end, a day after today, a start after the end. */
export function rangeProblem(start: string, end: string, today: string): DateProblem {
  if (!start) return "selectStart";
  if (!end) return "selectEnd";
  // ISO days compare as strings
  if (start > today || end > today || start > end) return "range";
  return null;
}

/** Game history values arrive as text: "Bs. 1,234.50" -> 1234.5; anything else -> 0. */
export function moneyFromText(text: string | null | undefined): number {
  const cleaned = (text ?? "").replace(/^\s*Bs\.\s*/i, "").replace(/,/g, "").trim();
  const value = Number(cleaned);
  return cleaned && Number.isFinite(value) ? value : 0;
}

/** A deposit the platform reports as Locked is shown as Failed. */
export function depositStatus(status: string): string {
  return status === "Locked" ? "Failed" : status;
}

/** The history page sizes; the game history also offers 99. */
export const PAGE_SIZES = [5, 15, 25, 40, 50] as const;
export const GAME_PAGE_SIZES = [...PAGE_SIZES, 99] as const;
export const DEFAULT_PAGE_SIZE = 5;

/** One page of rows (pages count from 1). */
export function pageOf<T>(rows: readonly T[], page: number, size: number): T[] {
  return rows.slice((page - 1) * size, page * size);
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
