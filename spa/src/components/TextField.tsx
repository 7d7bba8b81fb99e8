import { useId, type InputHTMLAttributes, type ReactNode } from "react";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  name: string;
  label: string;
  value: string;
  /** The field's translated messages (client checks and the answer's field errors); none: valid. */
  errors?: readonly string[];
  hint?: ReactNode;
  /** The input in a `.field__control` box (the player site's), with what goes before and after it in the box. */
  control?: { leading?: ReactNode; trailing?: ReactNode };
  /** How the messages are told: announced at once (`role="alert"`), and the test id they carry. */
  message?: { alert?: boolean; testId?: string };
  onValue: (value: string) => void;
}

/**
 * A labelled input with its hint and its messages, tied together for screen readers: the one text
 * field of both apps (the player site's `src/forms/Field.tsx`, the console's `TextField`). It carries
 * no app's words or state: each app binds its own.
 */
export function TextField({ name, label, value, errors = [], hint, control, message, onValue, type = "text", ...input }: TextFieldProps) {
  const id = useId();
  const invalid = errors.length > 0;
  const described = [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const field = (
    <input
      {...input}
      id={id}
      name={name}
      type={type}
      value={value}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={described}
      onChange={(event) => onValue(event.target.value)}
    />
  );
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {control ? (
        <div className={control.leading ? "field__control field__control--leading" : "field__control"}>
          {control.leading}
          {field}
          {control.trailing}
        </div>
      ) : (
        field
      )}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {invalid && (
        <p id={`${id}-error`} className="field__error" role={message?.alert ? "alert" : undefined} data-testid={message?.testId}>
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
