import type { FetchArgs } from "@reduxjs/toolkit/query";

// The gateway's double-submit check: the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN.
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether a fetchBaseQuery argument is an unsafe call (a bare string URL is a GET). */
export function needsXsrf(arg: string | FetchArgs): boolean {
  if (typeof arg === "string") return false;
  return UNSAFE_METHODS.has((arg.method ?? "GET").toUpperCase());
}

/** The decoded value of a cookie, or null when it is not set. */
export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const pair of cookies.split(";")) {
    const separator = pair.indexOf("=");
    if (separator === -1) continue;
    if (pair.slice(0, separator).trim() === name) {
      return decodeURIComponent(pair.slice(separator + 1).trim());
    }
  }
  return null;
}
