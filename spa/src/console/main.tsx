import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Provider } from "react-redux";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";

import "./styles/console.css";
import "./i18n";
import { BASENAME, consoleRoutes } from "./app/routes";
import { makeConsoleStore } from "./app/store";

const container = document.getElementById("root");
if (!container) throw new Error("console.html has no #root element");

const router = createBrowserRouter(consoleRoutes, { basename: BASENAME });
createRoot(container).render(
  <StrictMode>
    <Provider store={makeConsoleStore()}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
