import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from "@reduxjs/toolkit/query/react";
import type { FetchBaseQueryError } from "@reduxjs/toolkit/query";

import { codeOf } from "../utils/errorBody";
import { SESSION_EXPIRED } from "./errors";
import { needsXsrf, readCookie, XSRF_COOKIE, XSRF_HEADER } from "./xsrf";

const bffQuery = fetchBaseQuery({
  baseUrl: "/",
  credentials: "include",
  prepareHeaders: (headers, { arg }) => {
    const token = needsXsrf(arg) ? readCookie(XSRF_COOKIE) : null;
    if (token) headers.set(XSRF_HEADER, token);
    return headers;
  },
});

/** The gateway's refusal of a money call or a sign-in while the skin is in maintenance (503). */
export const MAINTENANCE = "MAINTENANCE";

function isMaintenance(data: unknown): boolean {
  return codeOf(data) === MAINTENANCE;
}

function isSessionExpired(data: unknown): boolean {
  return codeOf(data) === SESSION_EXPIRED;
}

/**
 * The BFF query. The platform answers an ended session with HTTP 200 and code SESSION_EXPIRED;
 * that is turned into an error here, so no screen mistakes it for data, and the session
 * listener (lib/session/sessionExpiry.ts) shows the popup.
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, apiCtx, extra) => {
  const result = await bffQuery(args, apiCtx, extra);
  // A maintenance that began while the page was open: the skin read again shows its page.
  if (result.error?.status === 503 && isMaintenance(result.error.data)) apiCtx.dispatch(api.util.invalidateTags(["Config"]));
  if (isSessionExpired(result.data)) {
    return { error: { status: "CUSTOM_ERROR", error: SESSION_EXPIRED, data: result.data }, meta: result.meta };
  }
  return result;
};

/** The one RTK Query API of the SPA: everything goes to the BFF on the same origin. */
export const api = createApi({
  reducerPath: "api",
  baseQuery,
  tagTypes: ["Config", "Session", "Balance", "Profile", "Providers", "Documents", "BankAccounts", "Withdrawals"],
  // Features add their endpoints with api.injectEndpoints.
  endpoints: () => ({}),
});

/** Whether a rejected RTK Query action failed because the platform session ended. */
export function isSessionExpiredError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { status?: unknown }).status === "CUSTOM_ERROR" &&
    (error as { error?: unknown }).error === SESSION_EXPIRED
  );
}
