import { render, type RenderOptions } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { Provider } from "react-redux";
import { MemoryRouter } from "react-router";

import { makeStore, type AppStore, type RootState } from "../app/store";

// The test harness sits above the layers: it builds the app's store (and test/app.tsx its
// routes), so tests anywhere (shared, features) take them from here rather than importing app/.

interface ProvidersOptions extends Omit<RenderOptions, "wrapper" | "queries"> {
  preloadedState?: Partial<RootState>;
  /** The URL the MemoryRouter starts at. */
  route?: string;
  store?: AppStore;
}

/** A fresh store from the app's makeStore, for tests that dispatch without rendering. */
export function makeTestStore(preloadedState?: Partial<RootState>): AppStore {
  return makeStore(preloadedState);
}

/** Renders `ui` with a fresh store from makeStore and a MemoryRouter, like the app does. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, route = "/", store = makeStore(preloadedState), ...options }: ProvidersOptions = {},
) {
  function Providers({ children }: { children: ReactNode }) {
    return (
      <Provider store={store}>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </Provider>
    );
  }
  return { store, ...render(ui, { wrapper: Providers, ...options }) };
}
