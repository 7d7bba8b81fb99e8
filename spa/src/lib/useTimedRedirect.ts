import { useEffect, useEffectEvent } from "react";
import { useNavigate } from "react-router";

/**
 * The timed checks of section 4: `ms` after the screen opens, `leave()` is asked (with the
 * state of that moment) and, when it says so, the player goes to /home.
 */
export function useTimedRedirect(ms: number, leave: () => boolean, enabled = true): void {
  const navigate = useNavigate();
  const check = useEffectEvent(leave);
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      if (check()) void navigate("/home", { replace: true });
    }, ms);
    return () => clearTimeout(timer);
  }, [ms, enabled, navigate]);
}

/** A session-storage flag of section 3 (Events, poker, BlackjackLeague) is on. */
export function sessionFlag(name: "Events" | "poker" | "BlackjackLeague"): boolean {
  return sessionStorage.getItem(name) === "true";
}
