import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Provider } from "react-redux";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";

import { appRoutes } from "./app/router";
import { makeStore } from "./app/store";
import { configApi } from "./features/config/configApi";
import { sessionApi } from "./features/session/sessionApi";
import "./i18n";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/shell.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const store = makeStore();
// Every screen needs the skin and the session: ask for both now rather than after the first
// screen's code has arrived (the layout's hooks then find them in flight or answered).
void store.dispatch(configApi.util.prefetch("getConfig", undefined, {}));
void store.dispatch(sessionApi.util.prefetch("getSession", undefined, {}));
const router = createBrowserRouter(appRoutes);

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
