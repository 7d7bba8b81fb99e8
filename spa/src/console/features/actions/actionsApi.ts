import { consoleApi } from "../../api/consoleApi";
import type { Purged, Revoked } from "../../api/types";

export const actionsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    purgeCache: build.mutation<Purged, { skin: string; reason: string }>({
      query: ({ skin, reason }) => ({ url: `api/skins/${encodeURIComponent(skin)}/cache/purge`, method: "POST", body: { reason } }),
      invalidatesTags: ["Audit"],
    }),
    revokePlayer: build.mutation<Revoked, { skin: string; login: string; reason: string }>({
      query: ({ skin, login, reason }) => ({
        url: `api/skins/${encodeURIComponent(skin)}/players/${encodeURIComponent(login)}/revoke`,
        method: "POST",
        body: { reason },
      }),
      invalidatesTags: ["Audit"],
    }),
  }),
});

export const { usePurgeCacheMutation, useRevokePlayerMutation } = actionsApi;
