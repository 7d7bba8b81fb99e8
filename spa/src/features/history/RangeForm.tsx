import { useId, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import type { DateProblem } from "./dates";

export interface DateRange {
  start: string;
  end: string;
}

interface RangeFormProps {
  range: DateRange;
  today: string;
  onRange: (change: (range: DateRange) => DateRange) => void;
  problem: DateProblem;
  /** The message for a wrong range (transaction and game histories word it differently). */
  rangeMessage: string;
  /** Extra fields before the dates (the transaction types) and their own problem. */
  children?: ReactNode;
  blocked?: boolean;
  busy: boolean;
  onShow: () => void;
}

/** Start and end date pickers and the Show button, disabled while the range is wrong. */
export function RangeForm(props: RangeFormProps) {
  const { t } = useTranslation("history");
  const id = useId();
  const { problem } = props;
  const message =
    problem === "selectStart" ? t("dates.selectStart") : problem === "selectEnd" ? t("dates.selectEnd") : problem === "range" ? props.rangeMessage : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!problem && !props.blocked && !props.busy) props.onShow();
  }

  return (
    <form className="history-form panel" onSubmit={submit} noValidate>
      {props.children}
      <div className="history-form__dates">
        <label htmlFor={`${id}-start`}>{t("dates.start")}</label>
        <input id={`${id}-start`} className="input" type="date" value={props.range.start} max={props.today} onChange={(e) => props.onRange((r) => ({ ...r, start: e.target.value }))} required aria-invalid={problem === "selectStart" || problem === "range"} aria-describedby={message ? `${id}-problem` : undefined} data-testid="history-start" />
        <label htmlFor={`${id}-end`}>{t("dates.end")}</label>
        <input id={`${id}-end`} className="input" type="date" value={props.range.end} max={props.today} onChange={(e) => props.onRange((r) => ({ ...r, end: e.target.value }))} required aria-invalid={problem === "selectEnd" || problem === "range"} aria-describedby={message ? `${id}-problem` : undefined} data-testid="history-end" />
        <button type="submit" className="button button--primary" disabled={problem !== null || props.blocked || props.busy} data-testid="history-show">
          {props.busy ? t("show.busy") : t("show.label")}
        </button>
      </div>
      {message && (
        <p id={`${id}-problem`} className="field__error" role="alert">
          {message}
        </p>
      )}
    </form>
  );
}
