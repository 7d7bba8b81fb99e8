import { afterEach, describe, expect, it } from "vitest";

import { stubBff } from "../test/bff";
import { api } from "./baseApi";
import { makeTestStore } from "../test/render";

// Endpoints that exist only in this test, to send one safe and one unsafe call.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probeRead: build.query<unknown, void>({ query: () => "/bff/probe" }),
    probeWrite: build.mutation<unknown, void>({ query: () => ({ url: "/bff/probe", method: "POST" }) }),
  }),
});

function sentRequest(fetchMock: ReturnType<typeof stubBff>): Request {
  const input: unknown = fetchMock.mock.lastCall?.[0];
  if (!(input instanceof Request)) throw new Error("fetch was not called with a Request");
  return input;
}

describe("api base query", () => {
  afterEach(() => {
    document.cookie = "XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT";
  });

  it("echoes the XSRF-TOKEN cookie on unsafe calls and sends credentials", async () => {
    document.cookie = "XSRF-TOKEN=token%2B1";
    const fetchMock = stubBff({ "/bff/probe": {} });

    await makeTestStore().dispatch(probeApi.endpoints.probeWrite.initiate());

    const request = sentRequest(fetchMock);
    expect(request.method).toBe("POST");
    expect(request.headers.get("X-XSRF-TOKEN")).toBe("token+1");
    expect(request.credentials).toBe("include");
  });

  it("leaves the header off safe calls", async () => {
    document.cookie = "XSRF-TOKEN=token";
    const fetchMock = stubBff({ "/bff/probe": {} });

    await makeTestStore().dispatch(probeApi.endpoints.probeRead.initiate());

    expect(sentRequest(fetchMock).headers.has("X-XSRF-TOKEN")).toBe(false);
  });
});
