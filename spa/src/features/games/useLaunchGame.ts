import { useCallback, useRef } from "react";

import type { Game } from "../../api/contracts.gen";

import { toAppError, replyFailure } from "../../app/errors";
import { useAppDispatch, useAppSelector } from "../../app/hooks";
import { openAuth, showNotice } from "../../app/uiSlice";
import { useLocale } from "../../i18n/useLocale";
import { useGetConfigQuery } from "../config/configApi";
import { useSession } from "../session/useSession";
import { launchEnded, launchStarted, openGame, selectGameFrame } from "./gameSlice";
import { launchCall, launchUrl, type LaunchTarget } from "./launch";
import { useLaunchMutation } from "./launchApi";

/**
 * Launching from any tile, card or icon: a visitor gets the login popup; a player gets the
 * game in the frame at the top of the page. A failed launch shows the platform's message.
 */
export function useLaunchGame(): { launch: (target: LaunchTarget, title: string) => Promise<void>; launching: string | null } {
  const dispatch = useAppDispatch();
  const { loggedIn } = useSession();
  const locale = useLocale();
  const skin = useGetConfigQuery().data?.skin;
  const { launching } = useAppSelector(selectGameFrame);
  const [trigger] = useLaunchMutation();

  const launch = useCallback(
    async (target: LaunchTarget, title: string) => {
      if (!loggedIn) {
        dispatch(openAuth("login"));
        return;
      }
      if (launching) return;
      dispatch(launchStarted(title));
      const result = await trigger(launchCall(target));
      if (result.error) {
        dispatch(launchEnded());
        // an ended session shows its own popup (features/session/sessionExpiry)
        const failure = toAppError(result.error);
        if (failure.code !== "SESSION_EXPIRED") dispatch(showNotice({ kind: "message", text: failure.message, variant: "error" }));
        return;
      }
      const ctx = { locale, currency: skin?.currency ?? "", sportsbookUrl: skin?.sportsbookUrl ?? null };
      const url = launchUrl(target, result.data, ctx);
      if (!url) {
        dispatch(launchEnded());
        dispatch(showNotice({ kind: "message", text: replyFailure(result.data), variant: "error" }));
        return;
      }
      dispatch(openGame({ url, title, target, loader: target.kind === "ezugi" }));
    },
    [dispatch, launching, locale, loggedIn, skin, trigger],
  );
  return { launch, launching };
}

/** A stable launcher of listed games, for rows and grids of GameCards. */
export function useGameLauncher(): { launchGame: (game: Game) => void; launching: string | null } {
  const { launch, launching } = useLaunchGame();
  const latest = useRef(launch);
  latest.current = launch;
  const launchGame = useCallback((game: Game) => void latest.current({ kind: "game", game }, game.gameName), []);
  return { launchGame, launching };
}
