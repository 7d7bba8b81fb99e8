import { useTranslation } from "react-i18next";

/** How a change or an audited call came: the console, a bearer token, the skins file, the CLI, the gateway
 * itself, or nothing at all (a refused call without a credential). */
const VIAS = ["console", "token", "file", "cli", "system", "start", "none"] as const;
/** What the gateway records as the reason of a bearer API call that gave none (a code, not words). */
const NO_REASON = ["NONE_GIVEN_VIA_API", "(none given, via API)"] as const;

type Via = (typeof VIAS)[number];
const isVia = (via: string): via is Via => (VIAS as readonly string[]).includes(via);

/** The gateway's recorded codes in the operator's language: a `via`, a reason the API left out. */
export function useWords() {
  const { t } = useTranslation();
  return {
    via: (via: string | null | undefined): string => (via ? (isVia(via) ? t(`via.${via}`) : via) : "–"),
    reason: (reason: string | null | undefined): string | null =>
      reason && (NO_REASON as readonly string[]).includes(reason) ? t("reasonNoneViaApi") : (reason ?? null),
  };
}
