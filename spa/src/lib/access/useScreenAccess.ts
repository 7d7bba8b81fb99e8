import { useCallback, useMemo } from "react";

import { useGetConfigQuery } from "../config/configApi";
import { useGetProfileQuery } from "../player/accountApi";
import { useSession } from "../session/useSession";
import { allows, screenAccess, type ScreenAccess } from "./screenAccess";

/** The one place that says whether the deposit and withdrawal flows are open to this visitor. */
export function useScreenAccess(): ScreenAccess {
  const features = useGetConfigQuery().data?.skin.features;
  const { known, loggedIn } = useSession();
  const profile = useGetProfileQuery(undefined, { skip: !loggedIn });
  const { data, isError } = profile;
  return useMemo(() => {
    // A failed profile call is an answer too (a SESSION_EXPIRED one logs the player out meanwhile).
    const answered = data ?? (isError ? {} : null);
    return screenAccess(features, !known ? null : loggedIn ? answered : undefined);
  }, [features, known, loggedIn, data, isError]);
}

/** Whether a link to a path may show; every menu, banner and in-page link asks this. */
export function useLinkAllowed(): (path: string) => boolean {
  const access = useScreenAccess();
  return useCallback((path: string) => allows(access, path), [access]);
}
