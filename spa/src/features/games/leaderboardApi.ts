import { api } from "../../api/baseApi";
import type { LeaderboardListResponse, LeaderboardParticipantsResponse } from "../../api/contracts.gen";

/** Blackjack League: the leaderboards and each one's participants (POST /api/leaderboard/*). */
export const leaderboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLeaderboards: build.query<LeaderboardListResponse, void>({
      query: () => ({ url: "/api/leaderboard/list", method: "POST", body: {} }),
    }),
    getParticipants: build.query<LeaderboardParticipantsResponse, string>({
      query: (leaderboardId) => ({ url: "/api/leaderboard/getParticipants", method: "POST", body: { leaderboardId } }),
    }),
  }),
});

export const { useGetLeaderboardsQuery, useGetParticipantsQuery } = leaderboardApi;
