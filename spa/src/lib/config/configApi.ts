import { api } from "../../api/baseApi";
import type { BffConfig } from "./types";

export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    getConfig: build.query<BffConfig, void>({
      query: () => "/bff/config",
      // The skin does not change while the page is open.
      keepUnusedDataFor: Number.POSITIVE_INFINITY,
    }),
  }),
});

export const { useGetConfigQuery } = configApi;
