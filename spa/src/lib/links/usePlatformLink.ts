import { useCallback } from "react";

import { useGetConfigQuery } from "../config/configApi";
import { countRefusal, platformLink, type LinkDecision } from "./links";

/** Link hosts as the gateway sends them while none are configured (older gateways send no list). */
const NONE: readonly string[] = [];

/**
 * The decision on a link from the platform, on this site with its skin's allowed hosts; a refusal
 * is counted. Null while the skin is not known yet: no link is followed or refused before then.
 */
export function usePlatformLink(): (raw: string | null | undefined) => LinkDecision | null {
  const skin = useGetConfigQuery().data?.skin;
  const allowedHosts = skin ? (skin.linkHosts ?? NONE) : null;
  return useCallback(
    (raw: string | null | undefined) => {
      if (allowedHosts === null) return null;
      const decision = platformLink(raw, { origin: window.location.origin, allowedHosts });
      if (decision.kind === "refused") countRefusal(raw ?? "", decision.reason);
      return decision;
    },
    [allowedHosts],
  );
}
