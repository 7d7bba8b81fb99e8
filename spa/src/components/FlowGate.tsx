import type { ReactNode } from "react";

import type { Flow } from "../lib/access/screenAccess";
import { useScreenAccess } from "../lib/access/useScreenAccess";
import { SCREEN_CHECK_MS, useTimedCheck } from "../lib/useTimedCheck";
import { PageLoader } from "./PageLoader";

/**
 * A screen of the deposit or withdrawal flow: the page loader until the skin and (logged in) the
 * profile have answered, then the screen, or home 1 s after opening (session flags Dp / widl)
 * when the skin's switch or the profile's flag has the flow off.
 */
export function FlowGate({ flow, children }: { flow: Flow; children: ReactNode }) {
  const access = useScreenAccess();
  const verdict = !access.known ? "unknown" : access[flow] ? "stay" : "leave";
  return useTimedCheck(SCREEN_CHECK_MS, verdict) ? children : <PageLoader />;
}
