import { consoleApi } from "../../api/consoleApi";
import type { Applied, Deferred, Override, Preview, UpstreamEdit } from "../../api/types";

export const changesApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    previewChange: build.mutation<Preview, UpstreamEdit>({
      query: (body) => ({ url: "api/changes/preview", method: "POST", body }),
    }),
    applyChange: build.mutation<Applied | Deferred, UpstreamEdit & { reason: string; override?: Override; at?: number }>({
      query: (body) => ({ url: "api/changes", method: "POST", body }),
      invalidatesTags: ["Overview", "History", "Instances", "Audit", "Plans"],
    }),
  }),
});

export const { usePreviewChangeMutation, useApplyChangeMutation } = changesApi;
