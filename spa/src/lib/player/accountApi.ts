import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { BalanceResponse, Profile } from "../../api/contracts.gen";

export const BALANCE_POLL_MS = 10_000;

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBalance: build.query<BalanceResponse, void>({
      query: () => ({ url: pathOf("balance"), method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getProfile: build.query<Profile, void>({
      query: () => ({ url: pathOf("getProfile"), method: "POST", body: {} }),
      providesTags: ["Profile"],
    }),
  }),
});

export const { useGetBalanceQuery, useGetProfileQuery } = accountApi;
