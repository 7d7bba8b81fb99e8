import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { PokerTournamentsResponse } from "../../api/contracts.gen";

/** The poker room's tournaments (getPokerTournamentsList, a player's call): the poker page lists them. */
export const pokerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPokerTournaments: build.query<PokerTournamentsResponse, void>({
      query: () => ({ url: pathOf("getPokerTournamentsList"), method: "POST", body: {} }),
    }),
  }),
});

export const { useGetPokerTournamentsQuery } = pokerApi;
