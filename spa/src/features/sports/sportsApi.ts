import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { Betslip, BetslipRequest, SportEvents } from "../../api/contracts.gen";
import type { Locale } from "../../i18n/language";

/** The combined soccer, basketball and tennis list refreshes every 5 minutes. */
export const EVENTS_REFRESH_MS = 300_000;

export const sportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSportsEvents: build.query<SportEvents, Locale>({
      query: (lang) => `${pathOf("sportsEvents")}?lang=${lang}`,
    }),
    // A read (the slip priced at today's odds), sent as a mutation: it runs once, on demand.
    priceBetslip: build.mutation<Betslip, BetslipRequest>({
      query: (body) => ({ url: pathOf("betslip"), method: "POST", body }),
    }),
  }),
});

export const { useGetSportsEventsQuery, usePriceBetslipMutation } = sportsApi;
