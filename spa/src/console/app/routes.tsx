import type { RouteObject } from "react-router";

import { AuditScreen } from "../features/audit/AuditScreen";
import { CanariesScreen } from "../features/canary/CanariesScreen";
import { CanaryScreen } from "../features/canary/CanaryScreen";
import { EventsScreen } from "../features/events/EventsScreen";
import { HistoryScreen } from "../features/history/HistoryScreen";
import { InstancesScreen } from "../features/instances/InstancesScreen";
import { OperatorsScreen } from "../features/operators/OperatorsScreen";
import { WelcomeScreen } from "../features/operators/WelcomeScreen";
import { NotFound } from "./NotFound";
import { OverviewRoute } from "./routes/OverviewRoute";
import { PlansRoute } from "./routes/PlansRoute";
import { Shell } from "./Shell";

/** The console's views, under the router's basename /admin (the gateway serves the page for each). */
export const consoleRoutes: RouteObject[] = [
  { path: "/welcome", element: <WelcomeScreen /> },
  {
    path: "/",
    element: <Shell />,
    children: [
      { index: true, element: <OverviewRoute /> },
      { path: "instances", element: <InstancesScreen /> },
      { path: "history", element: <HistoryScreen /> },
      { path: "audit", element: <AuditScreen /> },
      { path: "operators", element: <OperatorsScreen /> },
      { path: "events", element: <EventsScreen /> },
      { path: "plans", element: <PlansRoute /> },
      { path: "canaries", element: <CanariesScreen /> },
      { path: "canaries/:id", element: <CanaryScreen /> },
      { path: "*", element: <NotFound /> },
    ],
  },
];

export const BASENAME = "/admin";
