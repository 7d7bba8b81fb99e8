import { useCallback } from "react";
import { useNavigate } from "react-router";

import { useLogoutMutation } from "./sessionApi";

/** Spec: the page reloads 1 s after logout, so no screen keeps a player's data. */
export const LOGOUT_RELOAD_MS = 1000;

/** The session flags that belong to the player, cleared at logout (`locale`, `localS`
 * and the remembered login name stay: they belong to the browser). */
const PLAYER_STORAGE_KEYS = ["Events", "poker", "BlackjackLeague", "Dp", "widl", "gameurl", "lottery", "event"];

export function clearPlayerStorage(): void {
  for (const key of PLAYER_STORAGE_KEYS) {
    sessionStorage.removeItem(key);
    localStorage.removeItem(key);
  }
}

/** Logs out (the BFF ends the session whatever the platform says), goes home, reloads after 1 s. */
export function useLogout(): () => void {
  const [logout] = useLogoutMutation();
  const navigate = useNavigate();
  return useCallback(() => {
    void logout()
      .finally(() => {
        clearPlayerStorage();
        void navigate("/home", { replace: true });
        setTimeout(() => window.location.reload(), LOGOUT_RELOAD_MS);
      });
  }, [logout, navigate]);
}
