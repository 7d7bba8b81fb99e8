import { useEffect } from "react";

import { useStore } from "react-redux";

import { useAppDispatch } from "../store/hooks";
import type { RootState } from "../store/rootReducer";
import { useSession } from "../session/useSession";
import { accountApi } from "./accountApi";
import { BalanceStream, browserDeps, type StreamDeps } from "./balanceStream";
import type { BalanceResponse } from "../../api/contracts.gen";
import { sessionEndedByServer, streamHealth } from "./streamSlice";

/** While logged in, this tab takes part in the browser's one balance stream: what it hears
 * fills the same RTK Query entry the header reads (`getBalance`). Mounted once, in the layout. */
export function useBalanceStream(deps: () => StreamDeps = browserDeps): void {
  const { loggedIn } = useSession();
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  useEffect(() => {
    if (!loggedIn || typeof EventSource === "undefined") return;
    const stream = new BalanceStream(deps(), {
      balance: (data) => void dispatch(accountApi.util.upsertQueryData("getBalance", undefined, data as BalanceResponse)),
      healthy: (streaming) => dispatch(streamHealth(streaming)),
      ended: (reason) => {
        if (!loggingOut(store.getState())) dispatch(sessionEndedByServer(reason)); // this tab's own logout
      },
    });
    stream.start();
    return () => {
      stream.stop();
      dispatch(streamHealth(false));
    };
  }, [loggedIn, dispatch, store, deps]);
}

function loggingOut(state: RootState): boolean {
  return Object.values(state.api.mutations).some((mutation) => mutation?.endpointName === "logout");
}
