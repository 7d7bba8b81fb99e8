import type { KeyboardEvent, ReactNode } from "react";

import { TextField } from "./Field";
import type { FormState } from "./useForm";

export interface FieldSpec<F extends string> {
  name: F;
  label: string;
  type?: "text" | "email" | "password" | "tel";
  autoComplete?: string;
  inputMode?: "numeric" | "decimal" | "text" | "email" | "tel";
  maxLength?: number;
  hint?: string;
  /** Limits key presses (digits only, letters and digits...). */
  keys?: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** Upper-cases what is typed (IFSC codes, UPI ids). */
  upper?: boolean;
  readOnly?: boolean;
  /** A control shown before the input, part of the same value (a prefix choice). */
  leading?: ReactNode;
}

/** The text fields of a form, each wired to its rule, message and touch state. */
export function FormFields<F extends string>({ form, fields, onFocus }: { form: FormState<F>; fields: readonly FieldSpec<F>[]; onFocus?: () => void }) {
  return (
    <>
      {fields.map((field) => (
        <TextField
          key={field.name}
          name={field.name}
          label={field.label}
          type={field.type ?? "text"}
          autoComplete={field.autoComplete}
          inputMode={field.inputMode}
          maxLength={field.maxLength}
          hint={field.hint}
          readOnly={field.readOnly}
          leading={field.leading}
          value={String(form.values[field.name])}
          error={form.errors[field.name]}
          onValue={(value) => form.set(field.name, field.upper ? value.toUpperCase() : value)}
          onKeyDown={field.keys}
          onBlur={() => form.touch(field.name)}
          onFocus={onFocus}
        />
      ))}
    </>
  );
}
