import { createApi, fetchBaseQuery } from "@reduxjs/toolkit/query/react";

import { needsXsrf, readCookie, XSRF_COOKIE, XSRF_HEADER } from "./xsrf";

/** The one RTK Query API of the SPA: everything goes to the BFF on the same origin. */
export const api = createApi({
  reducerPath: "api",
  baseQuery: fetchBaseQuery({
    baseUrl: "/",
    credentials: "include",
    prepareHeaders: (headers, { arg }) => {
      const token = needsXsrf(arg) ? readCookie(XSRF_COOKIE) : null;
      if (token) headers.set(XSRF_HEADER, token);
      return headers;
    },
  }),
  tagTypes: ["Session", "Balance", "Profile", "Providers"],
  // Features add their endpoints with api.injectEndpoints.
  endpoints: () => ({}),
});
