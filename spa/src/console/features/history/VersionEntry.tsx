import { useTranslation } from "react-i18next";

import type { ConfigVersion } from "../../api/types";
import { ChangesDiff } from "../../components/ChangesDiff";
import { shortVersion, useFormats } from "../../lib/format";
import { useWords } from "../../lib/words";

interface VersionEntryProps {
  entry: ConfigVersion;
  current: boolean;
  /** Operators and admins get "Roll back to this" on every version but the current one. */
  onRollback?: (entry: ConfigVersion) => void;
}

/** One configuration version: who made it, when, why, and what it changed. */
export function VersionEntry({ entry, current, onRollback }: VersionEntryProps) {
  const { t } = useTranslation("history");
  const format = useFormats();
  const words = useWords();
  return (
    <li className="version" data-testid="history-version" data-version={entry.version}>
      <div className="version__head">
        <code className="version__id" title={entry.version}>
          {shortVersion(entry.version)}
        </code>
        <span className={`badge badge--action-${entry.action}`}>{t(`actions.${entry.action}`)}</span>
        {current && <span className="badge badge--current">{t("current")}</span>}
        <time dateTime={entry.at}>{format.dateTime(entry.at)}</time>
        <span data-testid="version-who">
          {entry.who ? t("by", { who: entry.who, via: words.via(entry.via) }) : t("byNobody")}
        </span>
      </div>
      {entry.reason && (
        <p className="version__reason" data-testid="version-reason">
          {t("reason", { reason: words.reason(entry.reason) })}
        </p>
      )}
      <ChangesDiff changes={entry.changes} />
      {onRollback && !current && (
        <button type="button" className="button" onClick={() => onRollback(entry)} data-testid="rollback-open"
                aria-label={t("rollbackLabel", { version: shortVersion(entry.version) })}>
          {t("rollback")}
        </button>
      )}
    </li>
  );
}
