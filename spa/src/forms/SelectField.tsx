import { useId } from "react";

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps {
  name: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  /** The first, empty choice (nothing chosen yet). */
  placeholder: string;
  error?: string;
  autoComplete?: string;
  onValue: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
}

/**
 * A labelled select with its message, laid out as the text fields are. A value that is not
 * among the options (one saved before the list existed) is kept as an option of its own.
 */
export function SelectField({
  name,
  label,
  value,
  options,
  placeholder,
  error,
  onValue,
  ...select
}: SelectFieldProps) {
  const id = useId();
  const listed =
    value === "" || options.some((option) => option.value === value);
  return (
    <div className={error ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        <select
          {...select}
          id={id}
          name={name}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onValue(event.target.value)}
        >
          <option value="">{placeholder}</option>
          {!listed && <option value={value}>{value}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
