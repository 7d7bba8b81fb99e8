import { consoleApi } from "../../api/consoleApi";
import type { Approval, MaintenanceWindow, Scheduled } from "../../api/types";

export interface WindowEdit {
  skin: string;
  /** Epoch seconds; null: now. */
  from: number | null;
  until: number;
  reason: string;
  message: Partial<Record<"es" | "pt" | "en", string>>;
}

export const plansApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getMaintenance: build.query<{ skins: Record<string, MaintenanceWindow> }, void>({
      query: () => "api/maintenance",
      providesTags: ["Plans"],
    }),
    setMaintenance: build.mutation<{ maintenance: MaintenanceWindow }, WindowEdit>({
      query: ({ skin, ...body }) => ({ url: `api/skins/${encodeURIComponent(skin)}/maintenance`, method: "PUT", body }),
      invalidatesTags: ["Plans", "Audit"],
    }),
    endMaintenance: build.mutation<unknown, { skin: string; reason: string }>({
      query: ({ skin, reason }) => ({ url: `api/skins/${encodeURIComponent(skin)}/maintenance`, method: "DELETE", body: { reason } }),
      invalidatesTags: ["Plans", "Audit"],
    }),
    getScheduled: build.query<{ scheduled: Scheduled[] }, void>({
      query: () => "api/scheduled",
      providesTags: ["Plans"],
    }),
    cancelScheduled: build.mutation<{ scheduled: Scheduled }, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `api/scheduled/${encodeURIComponent(id)}`, method: "DELETE", body: { reason } }),
      invalidatesTags: ["Plans", "Audit"],
    }),
    getApprovals: build.query<{ approvals: Approval[] }, void>({
      query: () => "api/approvals",
      providesTags: ["Plans"],
    }),
    decideApproval: build.mutation<{ approval: Approval }, { id: string; decision: "approve" | "reject"; reason: string }>({
      query: ({ id, decision, reason }) => ({
        url: `api/approvals/${encodeURIComponent(id)}/${decision}`, method: "POST", body: { reason },
      }),
      invalidatesTags: ["Plans", "Audit", "Overview", "History", "Instances"],
    }),
  }),
});

export const {
  useGetMaintenanceQuery, useSetMaintenanceMutation, useEndMaintenanceMutation, useGetScheduledQuery,
  useCancelScheduledMutation, useGetApprovalsQuery, useDecideApprovalMutation,
} = plansApi;
