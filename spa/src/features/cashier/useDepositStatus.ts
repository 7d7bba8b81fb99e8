import { useCallback, useEffect, useRef, useState } from "react";

import { useDepositStatusMutation } from "./cashierApi";
import { depositState } from "./depositForms";

/** The deposit status: the first check after 1 s, then every 10 s while pending. */
export const FIRST_CHECK_MS = 1000;
export const RECHECK_MS = 10_000;

export type DepositProgress = { state: "idle" } | { state: "pending"; comments: string | null } | { state: "approved" } | { state: "other"; status: string };

/** Follows a deposit by its sequence id until the provider approves it (or says otherwise). */
export function useDepositStatus(): { progress: DepositProgress; follow: (sequeNo: string) => void; stop: () => void } {
  const [check] = useDepositStatusMutation();
  const [progress, setProgress] = useState<DepositProgress>({ state: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stop = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const follow = useCallback(
    (sequeNo: string) => {
      stop();
      const poll = async () => {
        const result = await check(sequeNo);
        const status = result.data?.status;
        const state = result.error ? "pending" : depositState(status);
        if (state === "approved") {
          setProgress({ state: "approved" });
          return;
        }
        if (state === "other") {
          setProgress({ state: "other", status: status ?? "" });
          return;
        }
        setProgress({ state: "pending", comments: result.data?.comments ?? null });
        timer.current = setTimeout(() => void poll(), RECHECK_MS);
      };
      timer.current = setTimeout(() => void poll(), FIRST_CHECK_MS);
    },
    [check, stop],
  );

  useEffect(() => stop, [stop]);
  return { progress, follow, stop };
}
