import { api } from "../../api/baseApi";
import type { LaunchCall, LaunchReply } from "./launch";

/** A launch is a mutation: each one mints a fresh provider token and is never cached. */
export const launchApi = api.injectEndpoints({
  endpoints: (build) => ({
    launch: build.mutation<LaunchReply, LaunchCall>({
      query: ({ url, method, body }) => ({ url, method, body }),
    }),
  }),
});

export const { useLaunchMutation } = launchApi;
