import { consoleApi } from "../../api/consoleApi";
import type { ClusterStatus } from "./types";

export const statusApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getStatus: build.query<ClusterStatus, void>({ query: () => "api/status" }),
  }),
});

export const { useGetStatusQuery } = statusApi;
