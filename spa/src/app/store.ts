import { configureStore } from "@reduxjs/toolkit";
import { setupListeners } from "@reduxjs/toolkit/query";

import { api } from "../api/baseApi";
import { sessionExpiry } from "../lib/session/sessionExpiry";
import { rootReducer, type RootState } from "../lib/store/rootReducer";

export type { RootState };

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
