import { useTranslation } from "react-i18next";

/**
 * The console's numbers and times in the operator's language (Intl; nothing hand-made), never the
 * browser's locale. Times are in UTC, 24-hour, labelled: the same clock as the audit export, the
 * gateway's logs and the 409's "changed ... at", whatever zone each operator sits in.
 */
export interface Formats {
  /** "2 dic 2026, 07:02:11 UTC" (es), "Dec 2, 2026, 07:02:11 UTC" (en). */
  dateTime: (iso: string | null | undefined) => string;
  /** "hace 12 s" / "12 seconds ago", relative to `now` (ms). */
  ago: (iso: string | null | undefined, now?: number) => string;
  duration: (seconds: number) => string;
  ms: (value: number | null | undefined) => string;
  percent: (ratio: number | null | undefined) => string;
  number: (value: number, digits?: number) => string;
}

const DASH = "–";
/** The one zone the console shows times in (see `Formats`). */
export const ZONE = "UTC";

/** Hours and minutes (a chart's time axis), 24-hour, in `ZONE`. */
export function clock(lng: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(lng, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: ZONE });
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

export function formats(lng: string): Formats {
  const dateTime = new Intl.DateTimeFormat(lng, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
    hourCycle: "h23", timeZone: ZONE,
  });
  const relative = new Intl.RelativeTimeFormat(lng, { numeric: "auto", style: "short" });
  const number = (value: number, digits = 0) =>
    new Intl.NumberFormat(lng, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
  const parsed = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);
  return {
    dateTime: (iso) => (Number.isNaN(parsed(iso)) ? DASH : `${dateTime.format(parsed(iso))} ${ZONE}`),
    ago: (iso, now = Date.now()) => {
      const at = parsed(iso);
      if (Number.isNaN(at)) return DASH;
      const seconds = Math.round((at - now) / 1000);
      const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? UNITS[UNITS.length - 1]!;
      return relative.format(Math.round(seconds / size), unit);
    },
    duration: (seconds) => {
      const parts = UNITS.filter(([, size]) => seconds >= size).slice(0, 2);
      if (parts.length === 0) return new Intl.NumberFormat(lng, { style: "unit", unit: "second" }).format(0);
      let left = Math.floor(seconds);
      return parts
        .map(([unit, size]) => {
          const count = Math.floor(left / size);
          left -= count * size;
          return new Intl.NumberFormat(lng, { style: "unit", unit, unitDisplay: "narrow" }).format(count);
        })
        .join(" ");
    },
    ms: (value) => (value == null ? DASH : `${number(value, value < 10 ? 1 : 0)} ms`),
    percent: (ratio) =>
      ratio == null ? DASH : new Intl.NumberFormat(lng, { style: "percent", maximumFractionDigits: 1 }).format(ratio),
    number,
  };
}

export function useFormats(): Formats {
  const { i18n } = useTranslation();
  return formats(i18n.resolvedLanguage ?? i18n.language);
}

/** A configuration version as shown: its first 12 characters (the whole one in a title). */
export function shortVersion(version: string | null | undefined): string {
  return version ? version.slice(0, 12) : DASH;
}
