import { describe, expect, it } from "vitest";

import { DEFAULT_FAILURE, replyFailure, toAppError } from "./errors";

describe("toAppError", () => {
  it("prefers the client error message for a network failure", () => {
    const error = toAppError({ status: "FETCH_ERROR", error: "TypeError: Failed to fetch" });
    expect(error.message).toBe("TypeError: Failed to fetch");
  });

  it("takes the body message, then the description, then the default", () => {
    expect(toAppError({ status: 502, data: { message: "Upstream unavailable", code: "UPSTREAM" } })).toEqual({
      status: 502,
      code: "UPSTREAM",
      message: "Upstream unavailable",
      fields: {},
    });
    expect(toAppError({ status: 400, data: { description: "Invalid site" } }).message).toBe("Invalid site");
    expect(toAppError({ status: 500, data: "<html>oops</html>" }).message).toBe(DEFAULT_FAILURE);
    expect(toAppError(undefined).message).toBe(DEFAULT_FAILURE);
  });

  it("keeps the platform's field-level messages", () => {
    const error = toAppError({
      status: 422,
      data: { description: "Enter valid email", errors: { email: "Enter valid email", login: "" } },
    });
    expect(error.fields).toEqual({ email: "Enter valid email" });
  });

  it("reads a thrown error's message", () => {
    expect(toAppError({ name: "Error", message: "Aborted" }).message).toBe("Aborted");
  });
});

describe("replyFailure", () => {
  it("shows the platform's message or description as given, else the default", () => {
    expect(replyFailure({ message: "Maintenance" })).toBe("Maintenance");
    expect(replyFailure({ description: "Invalid Login or Password" })).toBe("Invalid Login or Password");
    expect(replyFailure({})).toBe(DEFAULT_FAILURE);
  });
});
