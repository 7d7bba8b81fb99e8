import { useId, useState, type InputHTMLAttributes, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

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

/** A labelled input with its hint and its message, tied together for screen readers. */
export function TextField({ name, label, value, error, hint, leading, onValue, type = "text", ...input }: TextFieldProps) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const { t } = useTranslation("forms");
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const isPassword = type === "password";

  return (
    <div className={error ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className={leading ? "field__control field__control--leading" : "field__control"}>
        {leading}
        <input
          {...input}
          id={id}
          name={name}
          type={isPassword && revealed ? "text" : type}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onValue(event.target.value)}
        />
        {isPassword && (
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
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
