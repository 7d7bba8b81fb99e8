/** A platform instant (ISO 8601) as the player's local date and time, short; text that is not a
 * date is shown as it came. */
export function localDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: "short", timeStyle: "short" });
}
