import { consoleApi } from "../../api/consoleApi";
import type { AuditFilters, AuditPage } from "../../api/types";
import { AUDIT_PAGE, auditQuery } from "./auditQuery";

export const auditApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getAudit: build.query<AuditPage, { filters: AuditFilters; before: string | null }>({
      query: ({ filters, before }) => `api/audit?${auditQuery(filters, { limit: String(AUDIT_PAGE), before })}`,
      providesTags: ["Audit"],
    }),
  }),
});

export const { useGetAuditQuery } = auditApi;
