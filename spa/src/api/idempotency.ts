import { useCallback, useRef } from "react";

import { pathOf, type PathArgs, type RouteName } from "./routes";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** A money or account-changing call to a catalogue route: POST with the action's Idempotency-Key. */
export const moneyCall = <N extends RouteName>(name: N, ...params: PathArgs<N>) => ({ body, key }: { body: unknown; key: string }) => ({
  url: pathOf(name, ...params),
  method: "POST",
  body,
  headers: { [IDEMPOTENCY_HEADER]: key },
});

/** A fresh key: 122 random bits, in the gateway's accepted alphabet. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

interface Attempt {
  key: string;
  body: string;
}

/**
 * One Idempotency-Key per user action on a money or account-changing form. A retry of the same
 * action (same body, after the answer was lost) reuses the key, so the gateway replays the first
 * answer instead of moving money twice; once an answer arrived, or the player changed the form,
 * the next submit is a new action with a new key (the gateway refuses a reused key with another
 * body: 422).
 */
export class IdempotentAction {
  private pending: Attempt | null = null;

  keyFor(body: unknown): string {
    const serialised = JSON.stringify(body ?? null);
    if (this.pending?.body !== serialised) this.pending = { key: newIdempotencyKey(), body: serialised };
    return this.pending.key;
  }

  /** The call answered (success or a refusal): the action is over. */
  settle(): void {
    this.pending = null;
  }
}

/** An IdempotentAction that lives as long as the form component. */
export function useIdempotentAction(): { keyFor: (body: unknown) => string; settle: () => void } {
  const action = useRef<IdempotentAction | null>(null);
  action.current ??= new IdempotentAction();
  const keyFor = useCallback((body: unknown) => action.current!.keyFor(body), []);
  const settle = useCallback(() => action.current!.settle(), []);
  return { keyFor, settle };
}
