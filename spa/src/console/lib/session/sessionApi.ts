import { consoleApi } from "../../api/consoleApi";
import type { ConsoleSession, SignIn } from "../../api/types";

export const sessionApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<ConsoleSession, void>({
      query: () => "api/session",
      providesTags: ["Session"],
    }),
    signIn: build.mutation<ConsoleSession, SignIn>({
      query: (body) => ({ url: "api/session", method: "POST", body }),
    }),
    signOut: build.mutation<void, void>({
      query: () => ({ url: "api/session", method: "DELETE" }),
    }),
  }),
});

export const { useGetSessionQuery, useSignInMutation, useSignOutMutation } = sessionApi;
