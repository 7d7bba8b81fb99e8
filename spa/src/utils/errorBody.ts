/**
 * Reading a failed call's JSON: the one set of helpers both apps read error bodies with (src/api/errors.ts
 * and src/api/baseApi.ts for the player site, src/console/api/errors.ts and consoleApi.ts for the console);
 * what each app makes of it (its messages, its error type) stays its own.
 */

/** An object's fields, or none when it is not an object (a missing or non-JSON body). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** A body's `code`, when it is a string (the gateway's and the platform's error codes). */
export function codeOf(body: unknown): string | null {
  const code = record(body).code;
  return typeof code === "string" ? code : null;
}

/** A string with something in it, else null. */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}
