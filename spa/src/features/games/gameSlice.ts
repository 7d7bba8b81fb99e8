import { createSlice, type PayloadAction, type WithSlice } from "@reduxjs/toolkit";

import { rootReducer } from "../../lib/store/rootReducer";
import type { LaunchTarget } from "./launch";

/** The game frame at the top of the page: open while a launch URL is set. */
export interface GameFrameState {
  url: string | null;
  title: string;
  /** What was launched: the full-page frame (/opentab) launches it again in its own tab. */
  target: LaunchTarget | null;
  /** Ezugi's lobby shows a loader over the frame for its first 4 s. */
  loader: boolean;
  /** A launch in flight (the tile shows it busy; a second click does nothing). */
  launching: string | null;
}

const initialState: GameFrameState = { url: null, title: "", target: null, loader: false, launching: null };

export const gameSlice = createSlice({
  name: "game",
  initialState,
  reducers: {
    launchStarted(state, action: PayloadAction<string>) {
      state.launching = action.payload;
    },
    launchEnded(state) {
      state.launching = null;
    },
    openGame(state, action: PayloadAction<{ url: string; title: string; target: LaunchTarget; loader?: boolean }>) {
      state.url = action.payload.url;
      state.title = action.payload.title;
      state.target = action.payload.target;
      state.loader = action.payload.loader ?? false;
      state.launching = null;
    },
    /** The X: clears the launch URL, which closes the frame. */
    closeGame() {
      return initialState;
    },
  },
  selectors: {
    selectGameFrame: (state) => state,
  },
});

declare module "../../lib/store/rootReducer" {
  export interface LazyLoadedSlices extends WithSlice<typeof gameSlice> {}
}

// The frame's state joins the store with the games feature (the app layout renders the frame).
const injectedGameSlice = gameSlice.injectInto(rootReducer);

export const { launchStarted, launchEnded, openGame, closeGame } = gameSlice.actions;
export const { selectGameFrame } = injectedGameSlice.selectors;
