import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { BffSession } from "./types";

/** Tags that belong to one player: dropped whenever the session changes hands. */
export const PLAYER_TAGS = ["Session", "Balance", "Profile", "Providers"] as const;

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Who the BFF says is logged in; also sets the session and XSRF-TOKEN cookies. */
    getSession: build.query<BffSession, void>({
      query: () => "/bff/session",
      providesTags: ["Session"],
    }),
    /** POST /api/player/logout; the BFF ends the session whatever the platform answers. */
    logout: build.mutation<unknown, void>({
      query: () => ({ url: pathOf("logout"), method: "POST", body: {} }),
      invalidatesTags: [...PLAYER_TAGS],
    }),
  }),
});

export const { useGetSessionQuery, useLogoutMutation } = sessionApi;
