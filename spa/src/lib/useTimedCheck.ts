import { useEffect, useState } from "react";
import { useNavigate } from "react-router";

/** The deposit, withdrawal and event screens check 1 s after opening, Lucky streak 1.3 s. */
export const SCREEN_CHECK_MS = 1000;
export const LUCKY_STREAK_CHECK_MS = 1300;

/** What a screen's check says: the answer it needs is not in yet, or it is and says stay / leave. */
export type Verdict = "unknown" | "stay" | "leave";

/** true once `ms` have passed since the component mounted. */
export function useElapsed(ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return elapsed;
}

/**
 * The screens' timed access checks, decided on the answers rather than on whatever a storage flag
 * holds at the moment: the player goes to /home when the verdict is "leave", no sooner than `ms`
 * after the screen opened (however late the answer). Returns whether the screen may show its
 * content: only on "stay"; until then the caller shows the page loader.
 */
export function useTimedCheck(ms: number, verdict: Verdict): boolean {
  const navigate = useNavigate();
  const due = useElapsed(ms);
  useEffect(() => {
    if (due && verdict === "leave") void navigate("/home", { replace: true });
  }, [due, verdict, navigate]);
  return verdict === "stay";
}
