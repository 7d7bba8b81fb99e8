import { consoleApi } from "../../api/consoleApi";
import type { Role } from "../../api/types";

/** An operator as the admin API shows them (never a hash or a link's digest). */
export interface OperatorAccount {
  name: string;
  role: Role;
  /** The skins they may change; empty: every skin. */
  skins: string[];
  disabled: boolean;
  /** False until their sign-in link is used. */
  hasPassword: boolean;
  linkExpiresAt: string | null;
}

export interface OperatorsList {
  operators: OperatorAccount[];
  /** Every skin, for the limits. */
  skins: string[];
  /** False without an operators file: nothing here can be changed. */
  managed: boolean;
}

/** A one-time sign-in link: its path carries the token in the fragment, never sent to a server. */
export interface SignInLink {
  path: string;
  expiresAt: string;
}

export interface Linked {
  operator: OperatorAccount;
  link: SignInLink;
}

export interface NewOperator {
  name: string;
  role: Role;
  skins: string[];
}

export type OperatorEdit = { name: string } & Partial<Pick<OperatorAccount, "role" | "skins" | "disabled">>;

export const operatorsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getOperators: build.query<OperatorsList, void>({
      query: () => "api/operators",
      providesTags: ["Operators"],
    }),
    addOperator: build.mutation<Linked, NewOperator>({
      query: (body) => ({ url: "api/operators", method: "POST", body }),
      invalidatesTags: ["Operators", "Audit"],
    }),
    changeOperator: build.mutation<{ operator: OperatorAccount }, OperatorEdit>({
      query: ({ name, ...body }) => ({ url: `api/operators/${encodeURIComponent(name)}`, method: "PATCH", body }),
      invalidatesTags: ["Operators", "Audit"],
    }),
    endSessions: build.mutation<{ operator: OperatorAccount }, string>({
      query: (name) => ({ url: `api/operators/${encodeURIComponent(name)}/sessions/end`, method: "POST" }),
      invalidatesTags: ["Operators", "Audit"],
    }),
    newLink: build.mutation<Linked, string>({
      query: (name) => ({ url: `api/operators/${encodeURIComponent(name)}/link`, method: "POST" }),
      invalidatesTags: ["Operators", "Audit"],
    }),
    setFirstPassword: build.mutation<{ name: string }, { token: string; password: string }>({
      query: (body) => ({ url: "api/welcome", method: "POST", body }),
    }),
  }),
});

export const {
  useGetOperatorsQuery,
  useAddOperatorMutation,
  useChangeOperatorMutation,
  useEndSessionsMutation,
  useNewLinkMutation,
  useSetFirstPasswordMutation,
} = operatorsApi;
