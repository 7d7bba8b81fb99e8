import type { SerializedError } from "@reduxjs/toolkit";
import type { FetchBaseQueryError } from "@reduxjs/toolkit/query";

import { record, text } from "../utils/errorBody";
import i18n from "../i18n";

/** The specification's last-resort message, word for word. */
export const DEFAULT_FAILURE = "some thing went wrong please contact admin";

/** The platform's one generally handled code: the session is gone. */
export const SESSION_EXPIRED = "SESSION_EXPIRED";

/** The one error type of the SPA: what the player is told, and what code caused it. */
export interface AppError {
  /** HTTP status, or a fetchBaseQuery status such as "FETCH_ERROR". */
  status: number | string;
  code: string | null;
  message: string;
  /** Field-level messages from the platform's form checks (`errors`), by field name. */
  fields: Record<string, string>;
}

function fieldMessages(value: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(record(value))) {
    const msg = text(message);
    if (msg) fields[name] = msg;
  }
  return fields;
}

/**
 * The gateway's own refusals and failures (`{message, code, requestId}`: the platform's replies
 * carry no requestId) in the player's language; the gateway's English text when the code is new.
 */
export function gatewayMessage(answer: unknown): string | null {
  const body = record(answer);
  const code = text(body.code);
  if (!code || typeof body.requestId !== "string") return null;
  const key = `gatewayErrors.${code}`;
  const options = { ns: "common", defaultValue: "" } as const;
  return i18n.exists(key, options) ? i18n.t(key, options) : null;
}

/**
 * Any failed call as an AppError, its message chosen in the spec's order: the thrown client
 * error message; the error body's message; the response message (description); the default.
 */
export function toAppError(error: FetchBaseQueryError | SerializedError | undefined): AppError {
  if (!error) return { status: "UNKNOWN", code: null, message: DEFAULT_FAILURE, fields: {} };
  if (!("status" in error)) {
    return { status: "CLIENT_ERROR", code: error.code ?? null, message: text(error.message) ?? DEFAULT_FAILURE, fields: {} };
  }
  const body = record("data" in error ? error.data : undefined);
  const clientMessage = "error" in error ? text(error.error) : null;
  const code = text(body.code) ?? (error.status === "CUSTOM_ERROR" ? clientMessage : null);
  const message =
    (error.status === "FETCH_ERROR" || error.status === "TIMEOUT_ERROR" ? clientMessage : null) ??
    gatewayMessage(body) ??
    text(body.message) ??
    text(body.description) ??
    DEFAULT_FAILURE;
  return { status: error.status, code, message, fields: fieldMessages(body.errors) };
}

/** A platform reply that answered HTTP 200 with success false: its message in the same order. */
export function replyFailure(reply: { message?: string | null; description?: string | null } | undefined): string {
  return text(reply?.message) ?? text(reply?.description) ?? DEFAULT_FAILURE;
}
