import { consoleApi } from "../../api/consoleApi";
import type { Applied, Deferred, Override, Preview, SettingEdit, UpstreamEdit } from "../../api/types";

export const changesApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    previewChange: build.mutation<Preview, UpstreamEdit>({
      query: (body) => ({ url: "api/changes/preview", method: "POST", body }),
    }),
    applyChange: build.mutation<Applied | Deferred, UpstreamEdit & { reason: string; override?: Override; at?: number }>({
      query: (body) => ({ url: "api/changes", method: "POST", body }),
      invalidatesTags: ["Overview", "History", "Instances", "Audit", "Plans"],
    }),
    previewSetting: build.mutation<Preview, SettingEdit>({
      query: (body) => ({ url: "api/settings/preview", method: "POST", body }),
    }),
    applySetting: build.mutation<Applied, SettingEdit & { reason: string }>({
      query: (body) => ({ url: "api/settings", method: "POST", body }),
      invalidatesTags: ["Overview", "History", "Instances", "Audit"],
    }),
  }),
});

export const { usePreviewChangeMutation, useApplyChangeMutation, usePreviewSettingMutation, useApplySettingMutation } = changesApi;
