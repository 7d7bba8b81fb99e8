import type { SerializedError } from "@reduxjs/toolkit";
import type { FetchBaseQueryError } from "@reduxjs/toolkit/query";

import { record, text } from "../../utils/errorBody";

import type { Conflict, ConflictChange, Role } from "./types";

/** One field's refusal in a 422 (`errors`): its code is translated, its message is the fallback. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** Any failed console call: the gateway's error JSON `{message, code, requestId}` and its extras. */
export interface ConsoleError {
  /** HTTP status, or fetchBaseQuery's "FETCH_ERROR" when the listener could not be reached. */
  status: number | string;
  code: string | null;
  message: string | null;
  requestId: string | null;
  fields: FieldError[];
  /** 403 FORBIDDEN: the role the call needs. */
  needs: Role | null;
  /** 429: seconds until the next try may succeed. */
  retryAfterS: number | null;
  /** 409 VERSION_CONFLICT: the version now current, and who changed what since the operator's. */
  conflict: Conflict | null;
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const entry = record(item);
    const field = text(entry.field);
    return field ? [{ field, code: text(entry.code) ?? "", message: text(entry.message) ?? "" }] : [];
  });
}

function isRole(value: unknown): value is Role {
  return value === "viewer" || value === "operator" || value === "admin";
}

function conflictOf(current: string, body: Record<string, unknown>): Conflict {
  const skins = Array.isArray(body.skins) ? body.skins.filter((skin): skin is string => typeof skin === "string") : [];
  return { current, skins, changes: Array.isArray(body.changes) ? (body.changes as ConflictChange[]) : [] };
}

/** A failed call (or none) as a ConsoleError. */
export function toConsoleError(error: FetchBaseQueryError | SerializedError | undefined): ConsoleError {
  const empty: ConsoleError = {
    status: "UNKNOWN", code: null, message: null, requestId: null, fields: [], needs: null, retryAfterS: null, conflict: null,
  };
  if (!error) return empty;
  if (!("status" in error)) return { ...empty, status: "CLIENT_ERROR", message: text(error.message) };
  const body = record("data" in error ? error.data : undefined);
  const current = text(body.current);
  return {
    ...empty,
    status: error.status,
    code: text(body.code),
    message: text(body.message) ?? ("error" in error ? text(error.error) : null),
    requestId: text(body.requestId),
    fields: fieldErrors(body.errors),
    needs: isRole(body.needs) ? body.needs : null,
    retryAfterS: typeof body.retryAfterS === "number" ? body.retryAfterS : null,
    conflict: error.status === 409 && current ? conflictOf(current, body) : null,
  };
}

/** The field errors of one field. */
export function errorsOf(error: ConsoleError | null, field: string): FieldError[] {
  return error?.fields.filter((item) => item.field === field) ?? [];
}
