import { useEffect } from "react";

import { useGetConfigQuery } from "./configApi";
import type { Maintenance } from "./types";

/** The longest a timer may wait (setTimeout's limit is about 24.8 days). */
const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * The skin's maintenance while it is on, else null. At its expected end the skin is read again,
 * so the page goes away by itself (or stays, with the new end, when the operators extended it).
 */
export function useMaintenance(): Maintenance | null {
  const { data, refetch, fulfilledTimeStamp } = useGetConfigQuery();
  const maintenance = data?.skin.maintenance ?? null;
  const until = maintenance?.until;
  useEffect(() => {
    if (until === undefined) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(1000, until * 1000 - Date.now() + 500));
    const timer = window.setTimeout(() => void refetch(), wait);
    return () => window.clearTimeout(timer);
  }, [until, refetch, fulfilledTimeStamp]); // read again after each answer that still says so (clocks differ)
  return maintenance;
}
