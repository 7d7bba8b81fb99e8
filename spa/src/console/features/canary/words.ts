import { useTranslation } from "react-i18next";

import { useFormats } from "../../lib/format";
import type { Canary } from "./types";

/** Epoch seconds (the canary's times) as the ISO string the console's formats read. */
export const iso = (seconds: number | null | undefined): string | null =>
  seconds == null ? null : new Date(seconds * 1000).toISOString();

/** A step's hold: "5 minutos" when it is whole minutes (as it was typed), else minutes and seconds. */
export function useHoldText(): (seconds: number) => string {
  const { i18n } = useTranslation();
  const format = useFormats();
  const minutes = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language, { style: "unit", unit: "minute", unitDisplay: "long" });
  return (seconds) => (seconds % 60 === 0 ? minutes.format(seconds / 60) : format.duration(seconds));
}

/** Who ends a canary that no operator ended: the controller (`system`). */
const BY_ITSELF = "system";

/**
 * How a canary ended, in words: "Rolled back by itself: p99 812 ms > 500 ms at 10 %, 3 checks" (the
 * controller's reason, as the trail keeps it), "Aborted by otto at ...: reason", "Promoted by itself:
 * now configuration version v7-..."; null while it runs.
 */
export function useEndState(canary: Canary): string | null {
  const { t } = useTranslation("canary");
  const format = useFormats();
  if (canary.ended === null && (canary.state === "running" || canary.state === "paused")) return null;
  const who = canary.endedBy ?? "–";
  const when = format.dateTime(iso(canary.ended));
  const reason = canary.endedReason ?? "–";
  const byItself = who === BY_ITSELF;
  if (canary.state === "rolled-back") return t(byItself ? "end.rolledBackByItself" : "end.rolledBack", { who, when, reason });
  if (canary.state === "aborted") return t(byItself ? "end.abortedByItself" : "end.aborted", { who, when, reason });
  const version = canary.promotedVersion?.slice(0, 12) ?? "–";
  if (byItself) return t("end.promotedByItself", { when, version });
  return t("end.promoted", { who, when, version, reason });
}
