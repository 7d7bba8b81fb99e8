import { combineSlices, configureStore } from "@reduxjs/toolkit";
import { setupListeners } from "@reduxjs/toolkit/query";

import { sessionExpiry } from "../features/session/sessionExpiry";
import { api } from "./api";
import { gameSlice } from "../features/games/gameSlice";
import { uiSlice } from "./uiSlice";

const rootReducer = combineSlices(api, uiSlice, gameSlice);

export type RootState = ReturnType<typeof rootReducer>;

/** One store factory for the app and for tests (`renderWithProviders`). */
export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(sessionExpiry.middleware).concat(api.middleware),
  });
  // Enables refetchOnFocus / refetchOnReconnect.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore["dispatch"];
