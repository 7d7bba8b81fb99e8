import { useState, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { TextField as Field } from "../components/TextField";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  /** A control that belongs to this field's value, shown before the input (CUIT's prefix). */
  leading?: ReactNode;
  onValue: (value: string) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
}

/**
 * The shared text field (src/components/TextField.tsx) as the player site shows it: boxed, its one
 * message announced, a password's reveal button in the box.
 */
export function TextField({ name, error, leading, type = "text", ...input }: TextFieldProps) {
  const [revealed, setRevealed] = useState(false);
  const { t } = useTranslation("forms");
  const isPassword = type === "password";
  const reveal = isPassword && (
    <button
      type="button"
      className="field__reveal"
      aria-pressed={revealed}
      aria-label={t(revealed ? "labels.hidePassword" : "labels.showPassword")}
      data-testid={`${name}-reveal`}
      onClick={() => setRevealed((shown) => !shown)}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
        <circle cx="12" cy="12" r="3" />
        {revealed && <path d="M3 3l18 18" />}
      </svg>
    </button>
  );
  return (
    <Field
      {...input}
      name={name}
      type={isPassword && revealed ? "text" : type}
      errors={error ? [error] : []}
      control={{ leading, trailing: reveal }}
      message={{ alert: true }}
    />
  );
}
