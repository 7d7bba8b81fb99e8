import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { ExchangeRatesResponse, ExchangeRequest, ExchangeResponse, PlayerLevelsResponse, PlayerStats } from "../../api/contracts.gen";
import { moneyCall } from "../../api/idempotency";

export const vipApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlayerLevels: build.query<PlayerLevelsResponse, void>({
      query: () => ({ url: pathOf("playerLevels"), method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    /** Lifetime totals of the player's play; they change with play, as the balance does. */
    getStats: build.query<PlayerStats, void>({
      query: () => ({ url: pathOf("getStats"), method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getExchangeRates: build.query<ExchangeRatesResponse, void>({
      query: () => ({ url: pathOf("exchangeRates"), method: "POST", body: {} }),
    }),
    /** Moves VIP points into cash: one Idempotency-Key per player action. */
    exchangePoints: build.mutation<ExchangeResponse, { body: ExchangeRequest; key: string }>({
      query: moneyCall("exchange"),
      invalidatesTags: (result) => (result?.success === false ? [] : ["Balance"]),
    }),
  }),
});

export const { useGetPlayerLevelsQuery, useGetStatsQuery, useGetExchangeRatesQuery, useExchangePointsMutation } = vipApi;
