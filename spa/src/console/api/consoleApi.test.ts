import { describe, expect, it } from "vitest";

import { sessionApi } from "../lib/session/sessionApi";
import { FakeConsole, json, refusal } from "../test/fakeConsole";
import { makeTestStore as makeConsoleStore } from "../test/render";
import { toConsoleError } from "./errors";

describe("the console's calls", () => {
  it("echo the console-csrf cookie on unsafe calls only", async () => {
    const server = new FakeConsole().install().signInAs("alice");
    const store = makeConsoleStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());
    await store.dispatch(sessionApi.endpoints.signOut.initiate());
    expect(server.calls("GET", "/admin/api/session")[0]!.headers.get("x-csrf-token")).toBeNull();
    expect(server.calls("DELETE", "/admin/api/session")[0]!.headers.get("x-csrf-token")).toBe("csrf-token-1");
  });

  it("turn a 401 into the session's end, but not a failed sign-in", async () => {
    const server = new FakeConsole().install().signInAs("alice");
    const store = makeConsoleStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());
    expect(store.getState().consoleSession.status).toBe("signedIn");

    await store.dispatch(sessionApi.endpoints.signIn.initiate({ name: "alice", password: "wrong" }));
    expect(store.getState().consoleSession.status).toBe("signedIn");

    server.answerOnce("GET", "/admin/api/session", () => refusal(401, "SESSION_EXPIRED"));
    await store.dispatch(sessionApi.endpoints.getSession.initiate(undefined, { forceRefetch: true }));
    expect(store.getState().consoleSession).toMatchObject({ status: "expired", reason: "SESSION_EXPIRED" });
    expect(store.getState().consoleSession.operator?.name).toBe("alice");
  });

  it("carry a 429's Retry-After into the error", async () => {
    const server = new FakeConsole().install();
    server.answerOnce("POST", "/admin/api/session", () => json(429, { code: "SIGN_IN_LIMITED", message: "m", requestId: "r" }, { "retry-after": "90" }));
    const store = makeConsoleStore();
    const answer = await store.dispatch(sessionApi.endpoints.signIn.initiate({ name: "alice", password: "x" }));
    expect(toConsoleError(answer.error)).toMatchObject({ status: 429, code: "SIGN_IN_LIMITED", retryAfterS: 90 });
  });

  it("read a 409's current version, its skins and who changed what, a 403's role, a 422's fields", () => {
    const changes = [{ skin: "aurora", upstream: "api", before: null, after: "https://x.example", who: "maria", via: "console",
                       at: "2026-12-02T14:02:11Z", version: "v9", action: "change" }];
    const conflict = { code: "VERSION_CONFLICT", current: "v9", skins: ["aurora", 7], changes };
    expect(toConsoleError({ status: 409, data: conflict }).conflict).toEqual({ current: "v9", skins: ["aurora"], changes });
    expect(toConsoleError({ status: 403, data: { code: "FORBIDDEN", needs: "admin" } }).needs).toBe("admin");
    expect(toConsoleError({ status: 422, data: { errors: [{ field: "url", code: "URL_SCHEME", message: "m" }, { code: "X" }] } }).fields)
      .toEqual([{ field: "url", code: "URL_SCHEME", message: "m" }]);
    expect(toConsoleError({ status: "FETCH_ERROR", error: "TypeError: Failed to fetch" })).toMatchObject({ status: "FETCH_ERROR", code: null });
  });
});
