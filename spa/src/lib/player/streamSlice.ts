import { createAction, createSlice, type PayloadAction, type WithSlice } from "@reduxjs/toolkit";

import { rootReducer } from "../store/rootReducer";

/** Whether the balance arrives by the BFF's stream (the header's 10 s polling then stops). */
export const streamSlice = createSlice({
  name: "balanceStream",
  initialState: { streaming: false, realityAnswered: 0 },
  reducers: {
    streamHealth(state, action: PayloadAction<boolean>) {
      state.streaming = action.payload;
    },
    /** The session's reality check of this number (and every one before) was answered somewhere. */
    realityAnswered(state, action: PayloadAction<number>) {
      state.realityAnswered = Math.max(state.realityAnswered, action.payload);
    },
  },
  selectors: {
    selectStreaming: (state) => state.streaming,
    selectRealityAnswered: (state) => state.realityAnswered,
  },
});

/** The stream ended with the session (logout in another tab, SESSION_EXPIRED, an operator's
 * revocation): the session listener shows the same popup as for a SESSION_EXPIRED answer. */
export const sessionEndedByServer = createAction<string>("balanceStream/sessionEnded");

declare module "../store/rootReducer" {
  export interface LazyLoadedSlices extends WithSlice<typeof streamSlice> {}
}

const injectedStreamSlice = streamSlice.injectInto(rootReducer);

export const { streamHealth, realityAnswered } = streamSlice.actions;
export const { selectStreaming, selectRealityAnswered } = injectedStreamSlice.selectors;
