import type { SkinFeatures } from "../config/types";

/** The flows an operator (skin `features`) or the platform (profile flags) can switch off. */
export type Flow = keyof SkinFeatures;

/** Every screen of each flow: its links hide and a visit goes home when the flow is off. */
const FLOW_SCREENS: Record<Flow, readonly string[]> = {
  deposits: ["/deposit", "/deposit-success", "/deposit-failed", "/deposit-pending", "/depositresponse"],
  withdrawals: ["/withdraw"],
};

/** Which flows the player may use, once the skin (and, logged in, the profile) has answered. */
export interface ScreenAccess {
  /** false while an answer the decision needs is still on its way. */
  known: boolean;
  deposits: boolean;
  withdrawals: boolean;
}

/** The flow a site path belongs to (query, hash and a trailing slash ignored), or null. */
export function flowOf(path: string): Flow | null {
  const pathname = path.split(/[?#]/, 1)[0]!.replace(/(.)\/+$/, "$1").toLowerCase();
  for (const flow of Object.keys(FLOW_SCREENS) as Flow[]) {
    if (FLOW_SCREENS[flow].includes(pathname)) return flow;
  }
  return null;
}

/** Whether a link to `path` may show: any path outside a flow; a flow's only once known to be on. */
export function allows(access: ScreenAccess, path: string): boolean {
  const flow = flowOf(path);
  return flow === null || (access.known && access[flow]);
}

interface ProfileSwitches {
  deposits?: number | null;
  withdrawal?: number | null;
}

/**
 * Both switches of each flow: the skin's (features, on unless set off) and the player's profile
 * flags (deposits = 0 or withdrawal = 0 turns that flow off). `profile` is undefined for a
 * visitor (no profile flags apply) and null while a logged-in player's profile is still unknown.
 */
export function screenAccess(features: SkinFeatures | undefined, profile: ProfileSwitches | null | undefined): ScreenAccess {
  return {
    known: features !== undefined && profile !== null,
    deposits: features?.deposits !== false && profile?.deposits !== 0,
    withdrawals: features?.withdrawals !== false && profile?.withdrawal !== 0,
  };
}
