import type { ReactNode } from "react";
import { Navigate } from "react-router";

import { useSession } from "../lib/session/useSession";
import { PageLoader } from "./PageLoader";

/** Guarded routes: a logged-out visitor goes to /home (once the session is known). */
export function RequireSession({ children }: { children: ReactNode }) {
  const { known, loggedIn } = useSession();
  if (!known) return <PageLoader />;
  if (!loggedIn) return <Navigate to="/home" replace />;
  return children;
}
