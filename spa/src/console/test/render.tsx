import { render } from "@testing-library/react";
import { Provider } from "react-redux";
import { createMemoryRouter, RouterProvider } from "react-router";

import { BASENAME, consoleRoutes } from "../app/routes";
import { makeConsoleStore } from "../app/store";
import { FakeConsole, type OPERATORS } from "./fakeConsole";

/** A fresh store from the console's makeConsoleStore, for tests that dispatch without rendering. */
export const makeTestStore = makeConsoleStore;

/**
 * The whole console, as main.tsx builds it, at `path` (under /admin), against a FakeConsole
 * installed as fetch; signed in as `as` unless it is null.
 */
export function renderConsole(path = "/", as: keyof typeof OPERATORS | null = "alice", server = new FakeConsole()) {
  server.install();
  if (as) server.signInAs(as);
  const store = makeConsoleStore();
  const router = createMemoryRouter(consoleRoutes, { basename: BASENAME, initialEntries: [`${BASENAME}${path}`] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router, server };
}
