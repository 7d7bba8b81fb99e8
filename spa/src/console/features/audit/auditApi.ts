import { consoleApi } from "../../api/consoleApi";
import type { AuditFilters, AuditPage } from "../../api/types";
import { AUDIT_PAGE, auditQuery } from "./auditQuery";

/** What breaks the trail's chain (`GET /admin/api/audit/verify`, gateway/accounts/chain.py). */
export type ChainProblem = "altered" | "unlinked" | "replayed" | "unreadable" | "truncated" | "unanchored" | "deleted";

export interface AuditVerdict {
  intact: boolean;
  checked: number;
  first: string | null;
  /** The newest entry found intact (up to the break, if any). */
  last: string | null;
  lastAt: string | null;
  /** The oldest kept entry names one the stream's bound trimmed: it anchors the chain. */
  trimmed: boolean;
  broken: { problem: ChainProblem; at: string | null; line: number | null; message: string } | null;
}

export const auditApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getAudit: build.query<AuditPage, { filters: AuditFilters; before: string | null }>({
      query: ({ filters, before }) => `api/audit?${auditQuery(filters, { limit: String(AUDIT_PAGE), before })}`,
      providesTags: ["Audit"],
    }),
    getAuditVerdict: build.query<AuditVerdict, void>({
      query: () => "api/audit/verify",
      providesTags: ["Audit"],
    }),
  }),
});

export const { useGetAuditQuery, useGetAuditVerdictQuery } = auditApi;
