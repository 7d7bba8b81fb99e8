import { useTranslation } from "react-i18next";

import { useFormats } from "../../lib/format";
import { useSignedIn } from "../../lib/store/hooks";
import { useGetAuditVerdictQuery } from "./auditApi";

const CHECK_MS = 5 * 60_000;
// A full check reads every kept entry (seconds for a full stream): every few minutes, and on each visit.

/** An entry as the line names it: its time (from its id, `<ms>-<n>`) and id, and a file's line. */
function useEntryName() {
  const { t } = useTranslation("audit");
  const format = useFormats();
  return (id: string | null, line: number | null = null) => {
    const ms = Number((id ?? "").split("-")[0]);
    const named = id ? `${Number.isFinite(ms) && ms > 0 ? format.dateTime(new Date(ms).toISOString()) : ""} (${id})` : "";
    return [named.trim(), line != null ? t("line", { line }) : ""].filter(Boolean).join(", ") || t("theStart");
  };
}

/** Whether every kept entry of the trail links to the one before (its hash chain), checked by the gateway. */
export function TrailCheck() {
  const { t } = useTranslation("audit");
  const name = useEntryName();
  const polling = useSignedIn() ? CHECK_MS : 0;
  const { data } = useGetAuditVerdictQuery(undefined, { pollingInterval: polling });
  if (!data) return null;
  if (data.intact || !data.broken) {
    const text = data.last ? t("verified", { entry: name(data.last), count: data.checked }) : t("verifiedEmpty");
    return (
      <p className="notice notice--ok" data-testid="trail-verified">
        {text} {data.trimmed && t("trimmed")}
      </p>
    );
  }
  const { broken } = data;
  return (
    <p className="notice notice--error" role="alert" data-testid="trail-altered" data-problem={broken.problem}>
      {t("altered", { entry: name(broken.at, broken.line), problem: t(`problems.${broken.problem}`) })}
    </p>
  );
}
