import { createSlice } from "@reduxjs/toolkit";

import { sessionEnded } from "../../api/sessionEvents";
import type { ConsoleSession, Role } from "../../api/types";
import { sessionApi } from "./sessionApi";

/**
 * `checking` until the first answer; `signedOut`: the sign-in screen; `expired`: the session ended
 * while the console was open: the sign-in dialog opens over the page, which keeps its state.
 */
export type SessionStatus = "checking" | "signedOut" | "signedIn" | "expired";

export interface SessionState {
  status: SessionStatus;
  operator: ConsoleSession | null;
  /** Why the last call was refused: SIGNED_OUT or SESSION_EXPIRED. */
  reason: string | null;
}

const initialState: SessionState = { status: "checking", operator: null, reason: null };

export const sessionSlice = createSlice({
  name: "consoleSession",
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (state, action) => {
        state.status = state.operator ? "expired" : "signedOut";
        state.reason = action.payload;
      })
      .addMatcher(sessionApi.endpoints.signOut.matchFulfilled, () => ({ ...initialState, status: "signedOut" }))
      .addMatcher(
        (action) =>
          sessionApi.endpoints.getSession.matchFulfilled(action) || sessionApi.endpoints.signIn.matchFulfilled(action),
        (state, action) => {
          state.status = "signedIn";
          state.operator = action.payload;
          state.reason = null;
        },
      );
  },
  selectors: {
    selectSession: (state) => state,
    selectOperator: (state) => state.operator,
  },
});

export const { selectSession, selectOperator } = sessionSlice.selectors;

const RANKS: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** Whether `role` may do what `needs` names (each role can do what the one before it can). */
export function allows(role: Role | undefined, needs: Role): boolean {
  return role !== undefined && RANKS[role] >= RANKS[needs];
}
