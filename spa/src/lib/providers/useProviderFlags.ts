import { useMemo } from "react";

import { useSession } from "../session/useSession";
import { useElapsed } from "../useTimedCheck";
import { providerFlags, toSwitches, type ProviderFlags } from "./flags";
import { useGetPlayerProviderListQuery, useGetProvidersQuery } from "./providersApi";

/** Spec timings: the provider list loads 500 ms after start and refreshes every 5 minutes. */
export const PROVIDER_LOAD_DELAY_MS = 500;
export const PROVIDER_REFRESH_MS = 300_000;

/** The refresh interval; browser tests shorten it with localStorage `providerRefreshMs`. */
function refreshInterval(): number {
  const override = Number(localStorage.getItem("providerRefreshMs"));
  return Number.isFinite(override) && override >= 1000 ? override : PROVIDER_REFRESH_MS;
}

/** Only the list and whether it failed re-render the layout that reads them (not each refresh's
 * `isFetching`): the whole page renders again when they change. */
function listOrError<T>({ data, isError }: { data?: T; isError: boolean }): { data?: T; isError: boolean } {
  return { data, isError };
}

/** Which provider-gated areas to show: the visitor list before login, the player's after. */
export function useProviderFlags(): ProviderFlags {
  const { known, loggedIn, login } = useSession();
  const ready = useElapsed(PROVIDER_LOAD_DELAY_MS) && known;
  const polling = { pollingInterval: refreshInterval(), skipPollingIfUnfocused: true };
  const visitor = useGetProvidersQuery(undefined, { ...polling, skip: !ready || loggedIn, selectFromResult: listOrError });
  const player = useGetPlayerProviderListQuery(login ?? "", {
    ...polling,
    skip: !ready || !loggedIn || !login,
    selectFromResult: listOrError,
  });
  const current = loggedIn ? player : visitor;
  const list = current.data;
  // A failed list is an answer too: the screens waiting on it decide with no provider named.
  const answered = list !== undefined || current.isError;
  return useMemo(() => providerFlags(toSwitches(list), answered), [list, answered]);
}
