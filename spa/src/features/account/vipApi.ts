import { api } from "../../app/api";
import { IDEMPOTENCY_HEADER } from "../../app/idempotency";
import type { ExchangeRatesResponse, ExchangeRequest, ExchangeResponse, PlayerLevelsResponse } from "../../api/contracts.gen";

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
      query: ({ body, key }) => ({ url: "/api/cp/exchange", method: "POST", body, headers: { [IDEMPOTENCY_HEADER]: key } }),
      invalidatesTags: (result) => (result?.success === false ? [] : ["Balance"]),
    }),
  }),
});

export const { useGetPlayerLevelsQuery, useGetExchangeRatesQuery, useExchangePointsMutation } = vipApi;
