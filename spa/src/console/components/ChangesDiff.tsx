import { useTranslation } from "react-i18next";

import type { Change } from "../api/types";

interface ChangesDiffProps {
  changes: Change[];
  caption?: string;
  testId?: string;
}

/** What a configuration version changes: each skin's upstream, before and after. */
export function ChangesDiff({ changes, caption, testId = "changes-diff" }: ChangesDiffProps) {
  const { t } = useTranslation();
  if (changes.length === 0) {
    return (
      <p className="muted" data-testid={testId}>
        {t("diff.none")}
      </p>
    );
  }
  const value = (url: string | null) => url ?? t("diff.fileValue");
  return (
    <div className="table-scroll">
      <table className="diff" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">{t("diff.skin")}</th>
            <th scope="col">{t("diff.upstream")}</th>
            <th scope="col">{t("diff.before")}</th>
            <th scope="col">{t("diff.after")}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={`${change.skin}/${change.upstream}`}>
              <td>{change.skin}</td>
              <td>{change.upstream}</td>
              <td className="diff__before">
                <del>{value(change.before)}</del>
              </td>
              <td className="diff__after">
                <ins>{value(change.after)}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
