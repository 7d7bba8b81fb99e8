import { useTranslation } from "react-i18next";

/** How a change or an audited call came: the console, a bearer token, the skins file, the CLI, the gateway
 * itself, or nothing at all (a refused call without a credential). */
const VIAS = ["console", "token", "file", "cli", "system", "start", "none"] as const;
/** What the gateway records as the reason of a bearer API call that gave none (a code, not words). */
const NO_REASON = ["NONE_GIVEN_VIA_API", "(none given, via API)"] as const;

/** A skin's settings, kept beside its upstreams under these names (the gateway's `features.<name>`). */
const SETTINGS = { "features.reality_check_minutes": "diff.realityCheck" } as const;

type Via = (typeof VIAS)[number];
const isVia = (via: string): via is Via => (VIAS as readonly string[]).includes(via);

/** Whether a change's or an audit entry's target is one of a skin's settings rather than an upstream. */
export function isSetting(target: string): target is keyof typeof SETTINGS {
  return Object.hasOwn(SETTINGS, target);
}

/** The gateway's recorded codes in the operator's language: a `via`, a reason the API left out, a
 * setting's name (an upstream's name is its own: api, capi, sbapi, rest). */
export function useWords() {
  const { t } = useTranslation();
  return {
    via: (via: string | null | undefined): string => (via ? (isVia(via) ? t(`via.${via}`) : via) : "–"),
    reason: (reason: string | null | undefined): string | null =>
      reason && (NO_REASON as readonly string[]).includes(reason) ? t("reasonNoneViaApi") : (reason ?? null),
    target: (target: string | null | undefined): string | null => (target ? (isSetting(target) ? t(SETTINGS[target]) : target) : null),
  };
}
