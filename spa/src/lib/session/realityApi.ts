import { api } from "../../api/baseApi";

/** A reality check open for the session (`GET /bff/reality`): money is null where the platform did not answer. */
export interface RealityFigures {
  number: number;
  /** When it fell due, epoch ms by the gateway's clock. */
  dueAt: number;
  sessionSeconds: number;
  deposits: number | null;
  withdrawals: number | null;
  balanceChange: number | null;
}

/** The session's clock and its reality check, as the gateway decides them. */
export interface RealityState {
  /** The gateway's clock (epoch ms) when it answered. */
  now: number;
  signedInAt: number;
  /** The skin's period; null: no checks. */
  everySeconds: number | null;
  answered: number;
  check: RealityFigures | null;
}

/** Loaded with the reality check only (lazily, once a player of a skin with checks is signed in). */
export const realityApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReality: build.query<RealityState, void>({ query: () => "/bff/reality", keepUnusedDataFor: 0 }),
    /** Answers every check due so far, for every tab of the session. */
    answerReality: build.mutation<RealityState, void>({
      query: () => ({ url: "/bff/reality/answer", method: "POST", body: {} }),
    }),
  }),
});

export const { useGetRealityQuery, useAnswerRealityMutation } = realityApi;
