import type { ThunkDispatch, UnknownAction } from "@reduxjs/toolkit";
import { useDispatch, useSelector } from "react-redux";

import type { Role } from "../../api/types";
import { allows, selectOperator } from "../session/sessionSlice";
import type { RootState } from "./rootReducer";

export type ConsoleDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export const useConsoleDispatch = useDispatch.withTypes<ConsoleDispatch>();
export const useConsoleSelector = useSelector.withTypes<RootState>();

/** Whether the signed-in operator's role may do what `needs` names; the API checks it again. */
export function useAllowed(needs: Role): boolean {
  const operator = useConsoleSelector(selectOperator);
  return allows(operator?.role, needs);
}

/** Whether the console has a live session now (polling pauses while the sign-in dialog is up). */
export function useSignedIn(): boolean {
  return useConsoleSelector((state) => state.consoleSession.status === "signedIn");
}
