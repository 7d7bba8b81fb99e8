import { api } from "../../api/baseApi";
import type { BalanceResponse, Profile } from "../../api/contracts.gen";

export const BALANCE_POLL_MS = 10_000;

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBalance: build.query<BalanceResponse, void>({
      query: () => ({ url: "/api/cashier/balance", method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getProfile: build.query<Profile, void>({
      query: () => ({ url: "/api/player/getProfile", method: "POST", body: {} }),
      providesTags: ["Profile"],
    }),
  }),
});

export const { useGetBalanceQuery, useGetProfileQuery } = accountApi;
