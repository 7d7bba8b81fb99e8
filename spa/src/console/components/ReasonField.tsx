import { useId } from "react";
import { useTranslation } from "react-i18next";

import { REASON_MAX } from "../lib/rules";

interface ReasonFieldProps {
  value: string;
  onValue: (value: string) => void;
  errors?: string[];
  /** Another reason than the write's own (an override's): its label and its form name. */
  label?: string;
  name?: string;
}

/** Why the operator does this: recorded with the change in the history and the audit trail. */
export function ReasonField({ value, onValue, errors = [], label, name = "reason" }: ReasonFieldProps) {
  const id = useId();
  const { t } = useTranslation();
  return (
    <div className={errors.length ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {label ?? t("reason.label")}
      </label>
      <textarea
        id={id}
        name={name}
        rows={2}
        maxLength={REASON_MAX}
        value={value}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={`${id}-hint${errors.length ? ` ${id}-error` : ""}`}
        onChange={(event) => onValue(event.target.value)}
      />
      <p id={`${id}-hint`} className="field__hint">
        {t("reason.hint", { count: value.trim().length, max: REASON_MAX })}
      </p>
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field__error" data-testid="reason-error">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
