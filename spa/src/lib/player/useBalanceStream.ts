import { useEffect } from "react";
import { useStore } from "react-redux";

import type { BalanceResponse } from "../../api/contracts.gen";
import { useSession } from "../session/useSession";
import { useAppDispatch } from "../store/hooks";
import type { RootState } from "../store/rootReducer";
import { accountApi } from "./accountApi";
import type { StreamSink } from "./balanceStream";
import { realityAnswered, sessionEndedByServer, streamHealth } from "./streamSlice";

/** While logged in, this tab takes part in the browser's one balance stream: what it hears
 * fills the same RTK Query entry the header reads (`getBalance`). Mounted once, in the layout;
 * the stream's code loads only once a player is logged in (a visitor never needs it). */
export function useBalanceStream(): void {
  const { loggedIn } = useSession();
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  useEffect(() => {
    if (!loggedIn || typeof EventSource === "undefined") return;
    const sink: StreamSink = {
      balance: (data) => void dispatch(accountApi.util.upsertQueryData("getBalance", undefined, data as BalanceResponse)),
      healthy: (streaming) => dispatch(streamHealth(streaming)),
      realityAnswered: (check) => dispatch(realityAnswered(check)),
      ended: (reason) => {
        if (!loggingOut(store.getState())) dispatch(sessionEndedByServer(reason)); // not this tab's own logout
      },
    };
    let stop: (() => void) | null = null;
    let left = false;
    void import("./balanceStream").then(({ BalanceStream, browserDeps }) => {
      if (left) return;
      const stream = new BalanceStream(browserDeps(), sink);
      stream.start();
      stop = () => stream.stop();
    });
    return () => {
      left = true;
      stop?.();
      dispatch(streamHealth(false));
    };
  }, [loggedIn, dispatch, store]);
}

function loggingOut(state: RootState): boolean {
  return Object.values(state.api.mutations).some((mutation) => mutation?.endpointName === "logout");
}
