import { useTranslation } from "react-i18next";

import type { ConsoleError } from "../api/errors";
import { useErrorText } from "../lib/errorText";

interface ErrorNoticeProps {
  error: ConsoleError | null;
  /** Fields the form shows beside their inputs; the others are listed here. */
  shownFields?: string[];
  testId?: string;
}

/** A refused or failed call, in words: 403 names the role it needs, 429 when to try again. */
export function ErrorNotice({ error, shownFields = [], testId = "error-notice" }: ErrorNoticeProps) {
  const { t } = useTranslation();
  const text = useErrorText();
  if (!error) return null;
  const others = error.fields.filter((item) => !shownFields.includes(item.field));
  // A 422 whose every field is shown beside its input needs no second message.
  if (error.status === 422 && error.fields.length > 0 && others.length === 0) return null;
  const forbidden = error.status === 403;
  return (
    <div className={forbidden ? "notice notice--forbidden" : "notice notice--error"} role="alert" data-testid={testId}
         data-status={String(error.status)}>
      <p>{error.fields.length > 0 ? t("errors.INVALID") : text.error(error)}</p>
      {others.length > 0 && (
        <ul>
          {others.map((item) => (
            <li key={`${item.field}-${item.code}`}>
              <strong>{item.field}</strong>: {text.field(item)}
            </li>
          ))}
        </ul>
      )}
      {error.requestId && <p className="notice__id">{t("errors.requestId", { id: error.requestId })}</p>}
    </div>
  );
}
