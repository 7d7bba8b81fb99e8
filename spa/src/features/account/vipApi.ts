import { api } from "../../api/baseApi";
import type { ExchangeRatesResponse, ExchangeRequest, ExchangeResponse, PlayerLevelsResponse } from "../../api/contracts.gen";
import { moneyCall } from "../../api/idempotency";

export const vipApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlayerLevels: build.query<PlayerLevelsResponse, void>({
      query: () => ({ url: "/api/cp/playerLevels", method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getExchangeRates: build.query<ExchangeRatesResponse, void>({
      query: () => ({ url: "/api/cp/exchangeRates", method: "POST", body: {} }),
    }),
    /** Moves VIP points into cash: one Idempotency-Key per player action. */
    exchangePoints: build.mutation<ExchangeResponse, { body: ExchangeRequest; key: string }>({
      query: moneyCall("/api/cp/exchange"),
      invalidatesTags: (result) => (result?.success === false ? [] : ["Balance"]),
    }),
  }),
});

export const { useGetPlayerLevelsQuery, useGetExchangeRatesQuery, useExchangePointsMutation } = vipApi;
