import type { LevelCounter, PlayerLevel, PlayerLevelsResponse } from "../../api/contracts.gen";

/** A VIP level with the counter its period reads (Week, Month, Year; anything else is hourly). */
export interface LevelProgress {
  level: PlayerLevel;
  counter: LevelCounter | null | undefined;
  reached: boolean;
}

function counterFor(period: string, levels: PlayerLevelsResponse): LevelCounter | null | undefined {
  switch (period) {
    case "Week":
      return levels.weeklyCounter;
    case "Month":
      return levels.monthlyCounter;
    case "Year":
      return levels.yearkyCounter; // the platform's spelling
    default:
      return levels.hourlyCounter;
  }
}

/** Each level against its period's points. */
export function levelProgress(levels: PlayerLevelsResponse | undefined): LevelProgress[] {
  return (levels?.playerLevelResponses ?? []).map((level) => {
    const counter = counterFor(level.period, levels!);
    return { level, counter, reached: (counter?.compPoints ?? 0) >= level.compPoints };
  });
}

/** The current level: the last one whose points the player has reached. */
export function currentLevel(progress: readonly LevelProgress[]): PlayerLevel | null {
  return [...progress].reverse().find((p) => p.reached)?.level ?? null;
}

/** The levels not reached yet, the next targets. */
export function nextTargets(progress: readonly LevelProgress[]): LevelProgress[] {
  return progress.filter((p) => !p.reached);
}

// toLocaleString with options builds a formatter on every call (each VIP target's date, on every
// render of /mybalance); one per language is enough.
const istFormats = new Map<string, Intl.DateTimeFormat>();

/** A target's end date as the platform's time zone shows it: "by {date} (IST)". */
export function istDate(iso: string | null | undefined, locale: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = istFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: "Asia/Kolkata", dateStyle: "medium", timeStyle: "short" });
    istFormats.set(locale, format);
  }
  return format.format(date);
}

/** Cash for `points` at a rate of `rate` currency per `perPoints` points, to the cent. */
export function exchangeValue(points: number, perPoints: number, rate: number): number {
  if (!Number.isFinite(points) || points <= 0 || perPoints <= 0) return 0;
  return Math.floor(((points / perPoints) * rate) * 100) / 100;
}

/** When the player levels fail, what the player is told is the platform's code, or this. */
export const UNKNOWN_LEVEL_ERROR = "Unknown error";

/** Why the levels could not be read (a refused reply, or a failed call's code), or null when they were. */
export function levelFailure(reply: PlayerLevelsResponse | undefined, failed: { code: string | null } | null): string | null {
  if (failed) return failed.code ?? UNKNOWN_LEVEL_ERROR;
  if (reply?.success === false) return reply.code || UNKNOWN_LEVEL_ERROR;
  return null;
}
