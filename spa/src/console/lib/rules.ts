/** The contract's input rules the console checks before asking (the gateway checks them again). */

export const REASON_MIN = 3;
export const REASON_MAX = 500;

/** A reason of 3-500 characters, blanks at the ends not counted. */
export function reasonValid(reason: string): boolean {
  const length = reason.trim().length;
  return length >= REASON_MIN && length <= REASON_MAX;
}

/** A base URL's field code when it is plainly wrong (REQUIRED, URL_INVALID, URL_SCHEME...), else null. */
export function baseUrlProblem(url: string): string | null {
  const text = url.trim();
  if (!text) return "REQUIRED";
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return "URL_INVALID";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "URL_SCHEME";
  if (parsed.search || parsed.hash || text.includes("?") || text.includes("#")) return "URL_HAS_PATH_QUERY";
  return null;
}

/** A reality check's period in minutes (the skins file's `features.reality_check_minutes` bounds). */
export const REALITY_MINUTES = { least: 0.25, most: 1440 } as const;

/** Typed minutes as the gateway takes them: a number, null for off (empty or 0), or the field's code when out of bounds. */
export function realityMinutes(typed: string): { value: number | null } | { problem: "OUT_OF_RANGE" } {
  const text = typed.trim().replace(",", ".");
  if (text === "" || Number(text) === 0) return { value: null };
  const value = Number(text);
  return Number.isFinite(value) && value >= REALITY_MINUTES.least && value <= REALITY_MINUTES.most ? { value } : { problem: "OUT_OF_RANGE" };
}
