import { useTranslation } from "react-i18next";

import type { AuditEntry } from "../../api/types";
import { useFormats } from "../../lib/format";
import { useWords } from "../../lib/words";

/** A before/after/detail value as text: strings as they are, anything else as compact JSON. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "–";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The trail's entries, newest first; addresses only for admins (the API leaves them out for others). */
export function AuditTable({ entries, showAddress }: { entries: AuditEntry[]; showAddress: boolean }) {
  const { t } = useTranslation("audit");
  const format = useFormats();
  const words = useWords();
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t("tableLabel")}>
      <table className="audit" data-testid="audit-table">
        <thead>
          <tr>
            <th scope="col">{t("at")}</th>
            <th scope="col">{t("action")}</th>
            <th scope="col">{t("who")}</th>
            {showAddress && <th scope="col">{t("address")}</th>}
            <th scope="col">{t("outcome")}</th>
            <th scope="col">{t("skinTarget")}</th>
            <th scope="col">{t("reason")}</th>
            <th scope="col">{t("beforeAfter")}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-entry" data-action={entry.action} data-who={entry.who}>
              <td>
                {/* Every entry read back from the trail has its time (`at` is None only before it is kept). */}
                <time dateTime={entry.at ?? undefined}>{entry.at !== null && format.dateTime(entry.at)}</time>
              </td>
              <td>{t(`actions.${entry.action}`, { defaultValue: entry.action })}</td>
              <td>
                {entry.who} <span className="muted">({words.via(entry.via)})</span>
              </td>
              {showAddress && <td>{entry.address ?? "–"}</td>}
              <td>
                <span className={`badge badge--outcome-${entry.outcome}`}>
                  {t(`outcomes.${entry.outcome}`, { defaultValue: entry.outcome })}
                </span>
              </td>
              <td>{[entry.skin, words.target(entry.target)].filter(Boolean).join(" / ") || "–"}</td>
              <td>{words.reason(entry.reason) ?? "–"}</td>
              <td className="audit__values">
                {entry.before != null || entry.after != null ? (
                  <>
                    <del>{shownValue(entry.before)}</del> → <ins>{shownValue(entry.after)}</ins>
                  </>
                ) : (
                  shownValue(entry.detail)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
