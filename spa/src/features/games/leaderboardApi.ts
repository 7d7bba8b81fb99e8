import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { LeaderboardListResponse, LeaderboardParticipantsResponse } from "../../api/contracts.gen";

/** Blackjack League: the leaderboards and each one's participants (POST /api/leaderboard/*). */
export const leaderboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLeaderboards: build.query<LeaderboardListResponse, void>({
      query: () => ({ url: pathOf("leaderboardList"), method: "POST", body: {} }),
    }),
    getParticipants: build.query<LeaderboardParticipantsResponse, string>({
      query: (leaderboardId) => ({ url: pathOf("leaderboardParticipants"), method: "POST", body: { leaderboardId } }),
    }),
  }),
});

export const { useGetLeaderboardsQuery, useGetParticipantsQuery } = leaderboardApi;
