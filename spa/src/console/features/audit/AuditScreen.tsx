import { useState } from "react";
import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import type { AuditFilters } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { selectOperator } from "../../lib/session/sessionSlice";
import { useAllowed, useConsoleSelector, useSignedIn } from "../../lib/store/hooks";
import { useGetAuditQuery } from "./auditApi";
import { AuditFilterForm } from "./AuditFilterForm";
import { auditQuery } from "./auditQuery";
import { AuditTable } from "./AuditTable";
import { TrailCheck } from "./TrailCheck";

const REFRESH_MS = 10_000;

interface AuditPageProps {
  filters: AuditFilters;
  before: string | null;
  last: boolean;
  onMore: (next: string) => void;
}

function AuditPageRows({ filters, before, last, onMore }: AuditPageProps) {
  const { t } = useTranslation("audit");
  const admin = useAllowed("admin");
  const polling = useSignedIn() && before === null ? REFRESH_MS : 0;
  const { data, error, isError } = useGetAuditQuery({ filters, before }, { pollingInterval: polling });
  if (isError) return <ErrorNotice error={toConsoleError(error)} />;
  if (!data) return null;
  if (data.entries.length === 0 && before === null) return <p className="muted">{t("empty")}</p>;
  return (
    <>
      <AuditTable entries={data.entries} showAddress={admin} />
      {last && data.next && (
        <button type="button" className="button" onClick={() => onMore(data.next ?? "")} data-testid="audit-more">
          {t("older")}
        </button>
      )}
    </>
  );
}

/** Who did what, when and from where: filterable; admins see everything and download it. */
export function AuditScreen() {
  const { t } = useTranslation("audit");
  const role = useConsoleSelector(selectOperator)?.role;
  const admin = useAllowed("admin");
  const [filters, setFilters] = useState<AuditFilters>({});
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const exportUrl = (format: "csv" | "json") => `/admin/api/audit/export?${auditQuery(filters, { format })}`;
  return (
    <section className="view" aria-labelledby="audit-title" data-testid="audit">
      <div className="view-head">
        <h1 id="audit-title">{t("title")}</h1>
        <p className="view-head__facts">{admin ? t("introAdmin") : t("intro")}</p>
        {admin && (
          <p className="downloads">
            <a className="button" href={exportUrl("csv")} download data-testid="audit-export-csv">
              {t("downloadCsv")}
            </a>
            <a className="button" href={exportUrl("json")} download data-testid="audit-export-json">
              {t("downloadJson")}
            </a>
          </p>
        )}
      </div>
      <TrailCheck />
      <AuditFilterForm role={role} onFilter={(next) => {
        setFilters(next);
        setCursors([null]);
      }} />
      {cursors.map((before, index) => (
        <AuditPageRows key={`${before ?? "newest"}`} filters={filters} before={before} last={index === cursors.length - 1}
                       onMore={(next) => setCursors((shown) => [...shown, next])} />
      ))}
    </section>
  );
}
