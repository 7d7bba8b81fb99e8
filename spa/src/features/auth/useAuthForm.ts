import { useEffect, useState, type FormEvent } from "react";

import { toAppError } from "../../api/errors";
import type { FormState } from "../../forms/useForm";
import { useFormMessage } from "../../forms/useForm";

/** What a login, sign-up or reset request came to: done, or refused with the message to show. */
export type AuthOutcome =
  | { ok: true }
  | {
      ok: false;
      message: string;
      /** The platform's messages per field (`errors` of a refusal). */
      fields?: Record<string, string> | null;
      /** Milliseconds the message stays (spec: an unknown account's, 5 s); else until the next try. */
      shownFor?: number;
    };

interface Failure {
  text: string;
  shownFor?: number;
}

/**
 * The login popup's one form pattern: Enter submits only when every field is valid, a second
 * submit waits for the first, a refusal shows its message (and the platform's field messages),
 * a failed call the spec's message in the player's language; focusing a field clears it.
 */
export function useAuthForm<F extends string>(form: FormState<F>, busy: boolean) {
  const formMessage = useFormMessage();
  const [failure, setFailure] = useState<Failure | null>(null);

  useEffect(() => {
    if (failure?.shownFor === undefined) return;
    const timer = setTimeout(() => setFailure(null), failure.shownFor);
    return () => clearTimeout(timer);
  }, [failure]);

  async function submit(event: FormEvent, send: () => Promise<AuthOutcome>) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid || busy) return;
    try {
      const outcome = await send();
      if (outcome.ok) return;
      setFailure({ text: outcome.message, shownFor: outcome.shownFor });
      if (outcome.fields) form.setServerErrors(outcome.fields as Partial<Record<F, string>>);
    } catch (error) {
      const appError = toAppError(error as Parameters<typeof toAppError>[0]);
      setFailure({ text: formMessage(appError.message) });
      form.setServerErrors(appError.fields as Partial<Record<F, string>>);
    }
  }

  /** The props every text field of the form shares: its value, message and handlers. */
  function field(name: F) {
    return {
      name,
      value: String(form.values[name]),
      error: form.errors[name],
      onValue: (value: string) => form.set(name, value),
      onBlur: () => form.touch(name),
      onFocus: () => setFailure(null),
    };
  }

  return { failure: failure?.text ?? null, submit, field, formMessage };
}
