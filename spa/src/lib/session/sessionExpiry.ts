import { createAction, createListenerMiddleware, isRejected, type UnknownAction } from "@reduxjs/toolkit";

import { api, isSessionExpiredError } from "../../api/baseApi";
import { sessionEndedByServer } from "../player/streamSlice";
import { showNotice } from "../store/uiSlice";
import { PLAYER_TAGS, sessionApi } from "./sessionApi";
import { clearPlayerStorage } from "./useLogout";

/**
 * A SESSION_EXPIRED that did not come through RTK Query (a document upload's XMLHttpRequest, any
 * fetch of its own): dispatch this, and it takes the same path as the base query's.
 */
export const sessionExpired = createAction("session/expired");

const expired = (action: UnknownAction) =>
  sessionExpired.match(action) ||
  sessionEndedByServer.match(action) ||
  (isRejected(action) && isSessionExpiredError(action.payload));

type ApiRoot = { [api.reducerPath]: ReturnType<typeof api.reducer> };

export const sessionExpiry = createListenerMiddleware<ApiRoot>();

/**
 * The one path of every SESSION_EXPIRED, wherever it came from, while the player was logged in:
 * the BFF has already ended the session; log out here too (so no poll asks again), clear the
 * player's storage, show the popup once, and refetch the session (which now says logged out),
 * so every per-player query stops. Later answers of the same expiry find the player logged out.
 */
sessionExpiry.startListening({
  predicate: expired,
  effect: (_action, listenerApi) => {
    const session = sessionApi.endpoints.getSession.select()(listenerApi.getState()).data;
    if (!session?.loggedIn) return;
    listenerApi.dispatch(
      sessionApi.util.updateQueryData("getSession", undefined, (draft) => {
        draft.loggedIn = false;
        draft.login = null;
      }),
    );
    clearPlayerStorage();
    listenerApi.dispatch(showNotice({ kind: "sessionExpired" }));
    listenerApi.dispatch(api.util.invalidateTags([...PLAYER_TAGS]));
  },
});
