import { api } from "../../api/baseApi";
import type { BffConfig } from "./types";

export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    getConfig: build.query<BffConfig, void>({
      query: () => "/bff/config",
      // The skin does not change while the page is open; its maintenance does: read again at its
      // end (useMaintenance) and when a call is refused for it (api/baseApi).
      keepUnusedDataFor: Number.POSITIVE_INFINITY,
      providesTags: ["Config"],
    }),
  }),
});

export const { useGetConfigQuery } = configApi;
