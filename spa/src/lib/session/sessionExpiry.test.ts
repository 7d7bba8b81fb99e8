import { describe, expect, it, vi } from "vitest";

import { api } from "../../api/baseApi";
import { makeTestStore } from "../../test/render";
import { closeNotice, selectNotice } from "../store/uiSlice";
import { sessionApi } from "./sessionApi";
import { sessionExpired } from "./sessionExpiry";

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probeBalance: build.query<unknown, void>({ query: () => ({ url: "/api/cashier/balance", method: "POST" }) }),
  }),
});

function stubPlatform(session: { loggedIn: boolean; login: string | null }, balance: unknown) {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    return Promise.resolve(Response.json(path === "/bff/session" ? session : balance));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("session expiry", () => {
  it("turns a SESSION_EXPIRED answer into the popup and a logged-out session", async () => {
    stubPlatform({ loggedIn: true, login: "demo1" }, { success: false, code: "SESSION_EXPIRED" });
    const store = makeTestStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());

    const result = await store.dispatch(probeApi.endpoints.probeBalance.initiate());

    expect(result.data).toBeUndefined();
    expect(selectNotice(store.getState())).toEqual({ kind: "sessionExpired" });
    expect(sessionApi.endpoints.getSession.select()(store.getState()).data?.loggedIn).toBe(false);
  });

  it("says nothing to a visitor who was not logged in", async () => {
    stubPlatform({ loggedIn: false, login: null }, { success: false, code: "SESSION_EXPIRED" });
    const store = makeTestStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());

    await store.dispatch(probeApi.endpoints.probeBalance.initiate());

    expect(selectNotice(store.getState())).toBeNull();
  });

  it("passes ordinary answers through as data", async () => {
    stubPlatform({ loggedIn: true, login: "demo1" }, { success: true, values: [] });
    const store = makeTestStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());

    const result = await store.dispatch(probeApi.endpoints.probeBalance.initiate());

    expect(result.data).toEqual({ success: true, values: [] });
    expect(selectNotice(store.getState())).toBeNull();
  });

  it("takes one path for an expiry from outside RTK Query (an upload): logged out, one popup, none again at the next poll", async () => {
    const bff = { loggedIn: true, login: "demo1" as string | null };
    stubPlatform(bff, { success: false, code: "SESSION_EXPIRED" });
    const store = makeTestStore();
    await store.dispatch(sessionApi.endpoints.getSession.initiate());
    sessionStorage.setItem("Dp", "true");

    Object.assign(bff, { loggedIn: false, login: null }); // the BFF ended the session
    store.dispatch(sessionExpired());

    expect(selectNotice(store.getState())).toEqual({ kind: "sessionExpired" });
    expect(sessionApi.endpoints.getSession.select()(store.getState()).data?.loggedIn).toBe(false);
    expect(sessionStorage.getItem("Dp")).toBeNull();
    const shown: unknown[] = [];
    store.subscribe(() => shown.push(selectNotice(store.getState())));
    store.dispatch(closeNotice());
    // The balance poll that follows hears SESSION_EXPIRED again: no second popup.
    await store.dispatch(probeApi.endpoints.probeBalance.initiate());
    expect(shown.filter((notice) => notice !== null)).toEqual([]);
  });
});
