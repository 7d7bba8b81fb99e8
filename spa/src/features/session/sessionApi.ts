import { api } from "../../app/api";
import type { BffSession } from "./types";

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<BffSession, void>({
      query: () => "/bff/session",
      providesTags: ["Session"],
    }),
  }),
});

export const { useGetSessionQuery } = sessionApi;
