import type { FetchBaseQueryError } from "@reduxjs/toolkit/query";
import { createApi, fetchBaseQuery, type BaseQueryApi, type BaseQueryFn, type FetchArgs } from "@reduxjs/toolkit/query/react";

import { needsXsrf, readCookie } from "../../api/xsrf";
import { codeOf, record } from "../../utils/errorBody";
import { sessionEnded } from "./sessionEvents";

/** The console's CSRF double submit: the readable `console-csrf` cookie echoed on unsafe calls. */
export const CSRF_COOKIE = "console-csrf";
export const CSRF_HEADER = "X-CSRF-Token";
/** Sent on the console's own refreshes, which do not count as the operator being active (idle timeout). */
export const POLL_HEADER = "X-Console-Poll";

/** The tags every console query provides; signing in again refreshes them all. */
export const TAGS = ["Session", "Overview", "Series", "Instances", "History", "Audit", "Operators", "Plans", "Canary"] as const;

const adminQuery = fetchBaseQuery({
  baseUrl: "/admin/",
  // The session cookie is HttpOnly and Path=/admin: the browser sends it, no script reads it.
  credentials: "same-origin",
  prepareHeaders: (headers, { arg }) => {
    const token = needsXsrf(arg) ? readCookie(CSRF_COOKIE) : null;
    if (token) headers.set(CSRF_HEADER, token);
    headers.set("accept", "application/json");
    return headers;
  },
});

/**
 * A query for data already shown (the views' polling, a refresh after a change) is the console's
 * own doing, not the operator's: it must not keep an unattended session alive.
 */
function refreshing(api: BaseQueryApi): boolean {
  if (api.type !== "query" || api.queryCacheKey === undefined) return false;
  const state = api.getState() as { consoleApi?: { queries?: Record<string, { data?: unknown } | undefined> } };
  return state.consoleApi?.queries?.[api.queryCacheKey]?.data !== undefined;
}

function asPoll(args: string | FetchArgs): FetchArgs {
  const request = typeof args === "string" ? { url: args } : args;
  const headers = new Headers(request.headers as HeadersInit | undefined);
  headers.set(POLL_HEADER, "1");
  return { ...request, headers };
}

/**
 * The admin listener's query: a 401 other than a failed sign-in tells the shell the session is
 * gone (it opens the sign-in dialog over the page); a 403 FORBIDDEN has the session asked for again
 * (the operator's role may have changed: the views then show what the new one may do); a 429
 * carries its Retry-After along.
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = await adminQuery(refreshing(api) ? asPoll(args) : args, api, extra);
  const error = result.error;
  if (error?.status === 401 && codeOf(error.data) !== "SIGN_IN_FAILED") {
    api.dispatch(sessionEnded(codeOf(error.data)));
  }
  if (error?.status === 403 && codeOf(error.data) === "FORBIDDEN") {
    api.dispatch(consoleApi.util.invalidateTags(["Session"]));
  }
  if (error?.status === 429) {
    const retryAfter = Number(result.meta?.response?.headers.get("retry-after") ?? Number.NaN);
    const data = record(error.data);
    const retryAfterS = Number.isFinite(retryAfter) ? retryAfter : null;
    return { error: { status: 429, data: { ...data, retryAfterS } }, meta: result.meta };
  }
  return result;
};

/** The one RTK Query API of the console; each feature injects its endpoints. */
export const consoleApi = createApi({
  reducerPath: "consoleApi",
  baseQuery,
  tagTypes: TAGS,
  endpoints: () => ({}),
});
