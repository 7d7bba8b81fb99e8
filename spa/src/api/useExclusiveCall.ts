import { useCallback, useState } from "react";

import { replyFailure, toAppError } from "./errors";
import { useIdempotentAction } from "./idempotency";

/** What a money or account-changing call came to. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string; code: string | null; retryable: boolean; reply?: T };

type Trigger<B, T> = (arg: { body: B; key: string }) => Promise<{ data?: T; error?: unknown }>;

/**
 * One player action on a money or account-changing form: its Idempotency-Key (reused if the
 * answer was lost and the player tries again), nothing sent while the first call is in flight,
 * and the answer as an Outcome with the spec's failure message.
 */
export function useExclusiveCall<B, T extends { success?: boolean; message?: string | null; description?: string | null }>(
  trigger: Trigger<B, T>,
): { run: (body: B) => Promise<Outcome<T> | null>; busy: boolean } {
  const action = useIdempotentAction();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (body: B): Promise<Outcome<T> | null> => {
      if (busy) return null;
      setBusy(true);
      try {
        const result = await trigger({ body, key: action.keyFor(body) });
        if (result.error) {
          const failure = toAppError(result.error);
          const lost = failure.status === "FETCH_ERROR" || failure.status === "TIMEOUT_ERROR" || failure.status === 502 || failure.status === 504;
          if (!lost) action.settle(); // a refusal ends the action; a lost answer keeps its key for the retry
          return { ok: false, message: failure.message, code: failure.code, retryable: lost };
        }
        action.settle();
        const data = result.data as T;
        // A refusal keeps its reply: some screens show a field of their own (a withdrawal's result.errorMsg).
        if (data.success === false) return { ok: false, message: replyFailure(data), code: null, retryable: false, reply: data };
        return { ok: true, data };
      } finally {
        setBusy(false);
      }
    },
    [action, busy, trigger],
  );
  return { run, busy };
}
