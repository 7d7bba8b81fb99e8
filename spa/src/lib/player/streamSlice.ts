import { createAction, createSlice, type PayloadAction, type WithSlice } from "@reduxjs/toolkit";

import { rootReducer } from "../store/rootReducer";

/** Whether the balance arrives by the BFF's stream (the header's 10 s polling then stops). */
export const streamSlice = createSlice({
  name: "balanceStream",
  initialState: { streaming: false },
  reducers: {
    streamHealth(state, action: PayloadAction<boolean>) {
      state.streaming = action.payload;
    },
  },
  selectors: {
    selectStreaming: (state) => state.streaming,
  },
});

/** The stream ended with the session (logout in another tab, SESSION_EXPIRED, an operator's
 * revocation): the session listener shows the same popup as for a SESSION_EXPIRED answer. */
export const sessionEndedByServer = createAction<string>("balanceStream/sessionEnded");

declare module "../store/rootReducer" {
  export interface LazyLoadedSlices extends WithSlice<typeof streamSlice> {}
}

const injectedStreamSlice = streamSlice.injectInto(rootReducer);

export const { streamHealth } = streamSlice.actions;
export const { selectStreaming } = injectedStreamSlice.selectors;
