/**
 * Reading a failed call's JSON, shared by both apps' error helpers (src/api/errors.ts for the player
 * site, src/console/api/errors.ts for the console): what each app makes of it stays its own.
 */

/** An object's fields, or none when it is not an object (a missing or non-JSON body). */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** A string with something in it, else null. */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}
