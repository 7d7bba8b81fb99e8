import { createListenerMiddleware, isRejected } from "@reduxjs/toolkit";

import { api, isSessionExpiredError } from "../../api/baseApi";
import { sessionEndedByServer } from "../player/streamSlice";
import { showNotice } from "../store/uiSlice";
import { PLAYER_TAGS, sessionApi } from "./sessionApi";

/**
 * Any SESSION_EXPIRED answer while the player was logged in: the BFF has already ended the
 * session; show the popup once and refetch the session (which now says logged out), so every
 * per-player query stops.
 */
type ApiRoot = { [api.reducerPath]: ReturnType<typeof api.reducer> };

export const sessionExpiry = createListenerMiddleware<ApiRoot>();

sessionExpiry.startListening({
  predicate: (action) =>
    (isRejected(action) && isSessionExpiredError(action.payload)) || sessionEndedByServer.match(action),
  effect: (_action, listenerApi) => {
    const session = sessionApi.endpoints.getSession.select()(listenerApi.getState()).data;
    if (!session?.loggedIn) return;
    listenerApi.dispatch(
      sessionApi.util.updateQueryData("getSession", undefined, (draft) => {
        draft.loggedIn = false;
        draft.login = null;
      }),
    );
    listenerApi.dispatch(showNotice({ kind: "sessionExpired" }));
    listenerApi.dispatch(api.util.invalidateTags([...PLAYER_TAGS]));
  },
});
