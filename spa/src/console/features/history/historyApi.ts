import { consoleApi } from "../../api/consoleApi";
import type { Applied, History, Override, Preview, RollbackEdit } from "../../api/types";

export const HISTORY_PAGE = 50;

export const historyApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getHistory: build.query<History, string | null>({
      query: (before) => `api/history?limit=${HISTORY_PAGE}${before ? `&before=${encodeURIComponent(before)}` : ""}`,
      providesTags: ["History"],
    }),
    previewRollback: build.mutation<Preview, RollbackEdit>({
      query: (body) => ({ url: "api/rollback/preview", method: "POST", body }),
    }),
    applyRollback: build.mutation<Applied, RollbackEdit & { reason: string; override?: Override }>({
      query: (body) => ({ url: "api/rollback", method: "POST", body }),
      invalidatesTags: ["Overview", "History", "Instances", "Audit"],
    }),
  }),
});

export const { useGetHistoryQuery, usePreviewRollbackMutation, useApplyRollbackMutation } = historyApi;
