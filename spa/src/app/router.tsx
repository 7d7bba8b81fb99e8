import { Navigate, type RouteObject } from "react-router";

import { PageLoader } from "../components/PageLoader";
import { AppLayout } from "./AppLayout";
import { NotFoundScreen } from "./routes/NotFoundScreen";
import { RouteErrorScreen } from "./routes/RouteErrorScreen";

/** The route table (spec: site shell, "Full route table"); main.tsx and tests build routers from it. */
export const appRoutes: RouteObject[] = [
  {
    path: "/",
    Component: AppLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorScreen,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      {
        path: "home",
        lazy: async () => ({ Component: (await import("./routes/HomeScreen")).HomeScreen }),
      },
    ],
  },
  { path: "*", Component: NotFoundScreen },
];
