import { consoleApi } from "../../api/consoleApi";
import type { Canary, CanaryAction, CanaryStart, Started } from "./types";

export const canaryApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getCanaries: build.query<Canary[], void>({
      query: () => "api/canaries",
      transformResponse: (answer: { canaries: Canary[] }) => answer.canaries,
      providesTags: ["Canary"],
    }),
    getCanary: build.query<Canary, string>({
      query: (id) => `api/canaries/${encodeURIComponent(id)}`,
      transformResponse: (answer: { canary: Canary }) => answer.canary,
      providesTags: ["Canary"],
    }),
    startCanary: build.mutation<Started, CanaryStart>({
      query: (body) => ({ url: "api/canaries", method: "POST", body }),
      invalidatesTags: ["Canary", "Audit"],
    }),
    actOnCanary: build.mutation<Canary, { id: string; action: CanaryAction; reason: string }>({
      query: ({ id, action, reason }) => ({ url: `api/canaries/${encodeURIComponent(id)}/${action}`, method: "POST", body: { reason } }),
      transformResponse: (answer: { canary: Canary }) => answer.canary,
      // A promotion makes a configuration version: the overview and the history show it.
      invalidatesTags: ["Canary", "Audit", "Overview", "History"],
    }),
  }),
});

export const { useGetCanariesQuery, useGetCanaryQuery, useStartCanaryMutation, useActOnCanaryMutation } = canaryApi;
