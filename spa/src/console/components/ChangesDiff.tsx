import { useTranslation } from "react-i18next";

import type { Change, ConflictChange } from "../api/types";
import { useFormats } from "../lib/format";
import { isSetting, useWords } from "../lib/words";

interface ChangesDiffProps {
  /** With who made each (a 409's changes): said in a sentence each above the table. */
  changes: (Change | ConflictChange)[];
  caption?: string;
  testId?: string;
}

/** What a configuration version changes: each skin's upstream (or setting), before and after. */
export function ChangesDiff({ changes, caption, testId = "changes-diff" }: ChangesDiffProps) {
  const { t } = useTranslation();
  const words = useWords();
  const said = useChangeValue();
  if (changes.length === 0) {
    return (
      <p className="muted" data-testid={testId}>
        {t("diff.none")}
      </p>
    );
  }
  const wrapped = (change: Change) => (isSetting(change.upstream) ? "diff__words" : undefined);  // broken at spaces, unlike a URL
  const settings = changes.filter((change) => isSetting(change.upstream)).length;
  const whatHeader = settings === 0 ? "diff.upstream" : settings === changes.length ? "diff.setting" : "diff.upstreamOrSetting";
  const blamed = changes.filter((change): change is ConflictChange => "who" in change);
  return (
    <>
      {blamed.length > 0 && <ChangedBy changes={blamed} testId={`${testId}-who`} />}
      <div className="table-scroll">
      <table className="diff" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">{t("diff.skin")}</th>
            <th scope="col">{t(whatHeader)}</th>
            <th scope="col">{t("diff.before")}</th>
            <th scope="col">{t("diff.after")}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={`${change.skin}/${change.upstream}`}>
              <td>{change.skin}</td>
              <td>{words.target(change.upstream)}</td>
              <td className="diff__before">
                <del className={wrapped(change)}>{said(change, change.before)}</del>
              </td>
              <td className="diff__after">
                <ins className={wrapped(change)}>{said(change, change.after)}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </>
  );
}

/** "maria (console) changed aurora's sbapi to https://... at 2 Dec 2026, 14:02:11 UTC", one line a change. */
function ChangedBy({ changes, testId }: { changes: ConflictChange[]; testId: string }) {
  const { t } = useTranslation();
  const format = useFormats();
  const words = useWords();
  const said = useChangeValue();
  return (
    <ul className="changed-by" data-testid={testId}>
      {changes.map((change) => {
        const what = { skin: change.skin, upstream: words.target(change.upstream), after: said(change, change.after) };
        return (
          <li key={`${change.skin}/${change.upstream}`}>
            {change.who
              ? t("diff.changedBy", { ...what, who: change.who, via: words.via(change.via), when: format.dateTime(change.at) })
              : t("diff.changedByNobody", what)}
          </li>
        );
      })}
    </ul>
  );
}

/** A change's before or after as the operator reads it: a URL as it is, a setting in words
 * ("every 60 minutes", "off"), the skins file's value when the override is gone. */
function useChangeValue() {
  const { t } = useTranslation();
  return (change: Change, value: string | null): string => {
    if (value === null) return t("diff.fileValue");
    if (!isSetting(change.upstream)) return value;
    return value === "off" ? t("diff.off") : t("diff.minutes", { count: Number(value) });
  };
}
