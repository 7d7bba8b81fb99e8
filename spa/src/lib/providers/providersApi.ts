import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { ProviderPermission, ProviderStatus } from "../../api/contracts.gen";

export const providersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Before login: the site's providers, status 1 or 0. */
    getProviders: build.query<ProviderStatus[], void>({
      query: () => ({ url: pathOf("getProviders"), method: "POST", body: {} }),
      providesTags: ["Providers"],
    }),
    /** After login: the player's permissions (role 0, the stored login name), status true or false. */
    getPlayerProviderList: build.query<ProviderPermission[], string>({
      query: (loginName) => ({ url: pathOf("getPlayerProviderList"), method: "POST", body: { role: 0, loginName } }),
      providesTags: ["Providers"],
    }),
  }),
});

export const { useGetProvidersQuery, useGetPlayerProviderListQuery } = providersApi;
