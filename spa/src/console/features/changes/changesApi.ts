import { consoleApi } from "../../api/consoleApi";
import type { Applied, Override, Preview, UpstreamEdit } from "../../api/types";

export const changesApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    previewChange: build.mutation<Preview, UpstreamEdit>({
      query: (body) => ({ url: "api/changes/preview", method: "POST", body }),
    }),
    applyChange: build.mutation<Applied, UpstreamEdit & { reason: string; override?: Override }>({
      query: (body) => ({ url: "api/changes", method: "POST", body }),
      invalidatesTags: ["Overview", "History", "Instances", "Audit"],
    }),
  }),
});

export const { usePreviewChangeMutation, useApplyChangeMutation } = changesApi;
