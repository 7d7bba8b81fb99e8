import { useState } from "react";
import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import type { ConfigVersion } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { useAllowed, useSignedIn } from "../../lib/store/hooks";
import { HISTORY_PAGE, useGetHistoryQuery } from "./historyApi";
import { RollbackDialog } from "./RollbackDialog";
import { VersionEntry } from "./VersionEntry";

const REFRESH_MS = 10_000;

interface HistoryPageProps {
  before: string | null;
  onRollback?: (entry: ConfigVersion, current: string) => void;
  onMore: (before: string) => void;
  last: boolean;
}

/** One page of versions, newest first; the last page shown offers the next one. */
function HistoryPage({ before, onRollback, onMore, last }: HistoryPageProps) {
  const { t } = useTranslation("history");
  const polling = useSignedIn() && before === null ? REFRESH_MS : 0;
  const { data, error, isError } = useGetHistoryQuery(before, { pollingInterval: polling });
  if (isError) return <ErrorNotice error={toConsoleError(error)} />;
  if (!data) return null;
  const oldest = data.versions[data.versions.length - 1];
  // The gateway's cursor; without one, a full page's oldest version is where the next one starts.
  const next = data.next !== undefined ? data.next : oldest && data.versions.length >= HISTORY_PAGE ? oldest.version : null;
  return (
    <>
      {data.versions.map((entry, index) => (
        // Only the newest entry is what runs now: an older one may carry the same version (a rollback
        // or a change back to the file's values makes the same configuration again).
        <VersionEntry key={entry.id ?? `${entry.version}-${index}`} entry={entry}
                      current={before === null && index === 0 && entry.version === data.current}
                      onRollback={onRollback && ((chosen) => onRollback(chosen, data.current))} />
      ))}
      {last && next && (
        <li className="more">
          <button type="button" className="button" onClick={() => onMore(next)} data-testid="history-more">
            {t("older")}
          </button>
        </li>
      )}
    </>
  );
}

/** Every configuration version, who/when/why and its diff; operators roll back from here. */
export function HistoryScreen() {
  const { t } = useTranslation("history");
  const mayRollBack = useAllowed("operator");
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [rollback, setRollback] = useState<{ to: ConfigVersion; base: string } | null>(null);
  return (
    <section className="view" aria-labelledby="history-title" data-testid="history">
      <div className="view-head">
        <h1 id="history-title">{t("title")}</h1>
        <p className="view-head__facts">{t("intro")}</p>
      </div>
      <ol className="versions">
        {cursors.map((before, index) => (
          <HistoryPage key={before ?? "newest"} before={before} last={index === cursors.length - 1}
                       onMore={(next) => setCursors((shown) => [...shown, next])}
                       onRollback={mayRollBack ? (to, base) => setRollback({ to, base }) : undefined} />
        ))}
      </ol>
      {rollback && <RollbackDialog to={rollback.to} baseVersion={rollback.base} onClose={() => setRollback(null)} />}
    </section>
  );
}
