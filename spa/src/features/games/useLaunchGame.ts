import { useCallback, useLayoutEffect, useRef } from "react";

import type { Game } from "../../api/contracts.gen";
import { replyFailure, SESSION_EXPIRED, toAppError } from "../../api/errors";
import { useAppDispatch, useAppSelector } from "../../lib/store/hooks";
import { openAuth, showNotice } from "../../lib/store/uiSlice";
import { useLocale } from "../../i18n/useLocale";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useSession } from "../../lib/session/useSession";
import { launchEnded, launchStarted, openGame, selectGameFrame } from "./gameSlice";
import { launchCall, launchUrl, type LaunchTarget } from "./launch";
import { useLaunchMutation } from "./launchApi";

/** A launch's outcome: the frame address, or the failure to show (with its code). */
export type LaunchOutcome = { url: string } | { url: null; message: string; code: string | null };

/**
 * Asks the BFF to launch `target` and reads the frame address from the answer (with the
 * site's language, currency and sportsbook page). One place for every screen that launches:
 * the top frame, the sports-game screen and the full-page tab.
 */
export function useLaunchUrl(): (target: LaunchTarget) => Promise<LaunchOutcome> {
  const locale = useLocale();
  const skin = useGetConfigQuery().data?.skin;
  const [trigger] = useLaunchMutation();
  return useCallback(
    async (target: LaunchTarget) => {
      const result = await trigger(launchCall(target));
      if (result.error) {
        const failure = toAppError(result.error);
        return { url: null, message: failure.message, code: failure.code };
      }
      const ctx = { locale, currency: skin?.currency ?? "", sportsbookUrl: skin?.sportsbookUrl ?? null };
      const url = launchUrl(target, result.data, ctx);
      return url ? { url } : { url: null, message: replyFailure(result.data), code: null };
    },
    [locale, skin, trigger],
  );
}

/**
 * Launching from any tile, card or icon: a visitor gets the login popup; a player gets the
 * game in the frame at the top of the page. A failed launch shows the platform's message.
 */
export function useLaunchGame(): { launch: (target: LaunchTarget, title: string) => Promise<void>; launching: string | null } {
  const dispatch = useAppDispatch();
  const { loggedIn } = useSession();
  const { launching } = useAppSelector(selectGameFrame);
  const resolve = useLaunchUrl();

  const launch = useCallback(
    async (target: LaunchTarget, title: string) => {
      if (!loggedIn) {
        dispatch(openAuth("login"));
        return;
      }
      if (launching) return;
      dispatch(launchStarted(title));
      const outcome = await resolve(target);
      if (outcome.url === null) {
        dispatch(launchEnded());
        // an ended session shows its own popup (lib/session/sessionExpiry)
        if (outcome.code !== SESSION_EXPIRED) dispatch(showNotice({ kind: "message", text: outcome.message, variant: "error" }));
        return;
      }
      dispatch(openGame({ url: outcome.url, title, target, loader: target.kind === "ezugi" }));
    },
    [dispatch, launching, loggedIn, resolve],
  );
  return { launch, launching };
}

/** A stable launcher of listed games, for rows and grids of GameCards. */
export function useGameLauncher(): { launchGame: (game: Game) => void; launching: string | null } {
  const { launch, launching } = useLaunchGame();
  const latest = useRef(launch);
  useLayoutEffect(() => {
    latest.current = launch;
  });
  const launchGame = useCallback((game: Game) => void latest.current({ kind: "game", game }, game.gameName), []);
  return { launchGame, launching };
}
