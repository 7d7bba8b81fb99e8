import { useId, type InputHTMLAttributes, type ReactNode } from "react";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  name: string;
  label: string;
  value: string;
  /** Translated messages for this field (client checks and the gateway's 422). */
  errors?: string[];
  hint?: ReactNode;
  onValue: (value: string) => void;
}

/** A labelled input, its hint and its errors tied together for screen readers. */
export function TextField({ name, label, value, errors = [], hint, onValue, type = "text", ...input }: TextFieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={errors.length ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        name={name}
        type={type}
        value={value}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onValue(event.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field__error" data-testid={`${name}-error`}>
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
