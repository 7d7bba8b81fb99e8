import { configureStore } from "@reduxjs/toolkit";
import { setupListeners } from "@reduxjs/toolkit/query";

import { consoleApi } from "../api/consoleApi";
import { rootReducer, type RootState } from "../lib/store/rootReducer";

/** One store factory for the console and its tests. */
export function makeConsoleStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(consoleApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type ConsoleStore = ReturnType<typeof makeConsoleStore>;
