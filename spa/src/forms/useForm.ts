import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

import { checkField, messageKey, type FieldRule, type FieldValue } from "./rules";

export type Values<F extends string> = Record<F, FieldValue>;

export interface FormState<F extends string> {
  values: Values<F>;
  /** The translated message of each field the player has left or tried to submit, else undefined. */
  errors: Partial<Record<F, string>>;
  valid: boolean;
  set: (name: F, value: FieldValue) => void;
  touch: (name: F) => void;
  /** Shows every field's message, as a submit attempt does. */
  touchAll: () => void;
  /** Messages from the platform (`errors` of a refusal), shown until the field changes. */
  setServerErrors: (errors: Partial<Record<F, string>>) => void;
  reset: (values?: Partial<Values<F>>) => void;
}

/** Translates a platform message: the `forms` namespace knows each rules.gen.ts message;
 * anything else (a message the platform sent) is shown as given. */
export function useFormMessage(): (message: string) => string {
  const { t } = useTranslation("forms");
  return useCallback((message: string) => t(`messages.${messageKey(message)}`, { defaultValue: message }), [t]);
}

/** Field values, their rule checks and which messages to show; one hook for every form. */
export function useForm<F extends string>(rules: Partial<Record<F, FieldRule>>, initial: Values<F>): FormState<F> {
  const translate = useFormMessage();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [server, setServer] = useState<Partial<Record<F, string>>>({});

  const failures = useMemo(() => {
    const found: Partial<Record<F, string>> = {};
    for (const name of Object.keys(values) as F[]) {
      const rule = rules[name];
      const failure = rule ? checkField(rule, values[name]) : null;
      if (failure) found[name] = failure;
    }
    return found;
  }, [rules, values]);

  const errors = useMemo(() => {
    const shown: Partial<Record<F, string>> = {};
    for (const name of Object.keys(values) as F[]) {
      const message = server[name] ?? (touched[name] ? failures[name] : undefined);
      if (message) shown[name] = translate(message);
    }
    return shown;
  }, [values, server, touched, failures, translate]);

  const set = useCallback((name: F, value: FieldValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setServer((current) => (name in current ? { ...current, [name]: undefined } : current));
  }, []);
  const touch = useCallback((name: F) => setTouched((current) => ({ ...current, [name]: true })), []);
  const touchAll = useCallback(
    () => setTouched(Object.fromEntries(Object.keys(values).map((name) => [name, true])) as Record<F, boolean>),
    [values],
  );
  const reset = useCallback(
    (next?: Partial<Values<F>>) => {
      setValues({ ...initial, ...next });
      setTouched({});
      setServer({});
    },
    [initial],
  );

  return {
    values,
    errors,
    valid: Object.keys(failures).length === 0,
    set,
    touch,
    touchAll,
    setServerErrors: setServer,
    reset,
  };
}
