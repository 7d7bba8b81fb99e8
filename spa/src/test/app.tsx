import { render } from "@testing-library/react";
import { Provider } from "react-redux";
import { createMemoryRouter, RouterProvider } from "react-router";

import { appRoutes } from "../app/router";
import { makeStore } from "../app/store";

/** The whole app at `url`: its route table and layout with a fresh store, as main.tsx renders it. */
export function renderAppAt(url: string) {
  const store = makeStore();
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router };
}
