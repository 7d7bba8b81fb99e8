import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Provider } from "react-redux";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";

import { appRoutes } from "./app/router";
import { makeStore } from "./app/store";
import "./i18n";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/shell.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

const store = makeStore();
const router = createBrowserRouter(appRoutes);

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
