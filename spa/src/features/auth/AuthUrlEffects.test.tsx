import { waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { selectNotice } from "../../lib/store/uiSlice";
import { skinConfig } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { AuthUrlEffects } from "./AuthUrlEffects";

/** The BFF: a visitor's session; records the affiliate hit-count calls. */
function stubHits() {
  const hits: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: Request) => {
      const path = new URL(input.url).pathname;
      if (path === "/bff/session") return Response.json({ loggedIn: false, login: null });
      if (path === "/api/affiliateHistory/getHitCountSummary") {
        hits.push(await input.json());
        return Response.json({ success: true });
      }
      return Response.json({ message: "not found" }, { status: 404 });
    }),
  );
  return hits;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("a referral link", () => {
  it("counts an affiliate hit on any path, not only /register", async () => {
    const hits = stubHits();
    renderWithProviders(<AuthUrlEffects />, { route: "/promotions?ID=AFF77&type=affiliate&click_id=c-1" });
    await waitFor(() => expect(hits).toEqual([{ campaignId: "AFF77", campaignType: "affiliate", languageCode: "es" }]));
    expect(localStorage.getItem("affCid")).toBe("AFF77");
  });

  it("counts no hit for an agent's link", async () => {
    const hits = stubHits();
    renderWithProviders(<AuthUrlEffects />, { route: "/home?ID=AG1&type=agent" });
    await waitFor(() => expect(localStorage.getItem("agentCid")).toBe("AG1"));
    expect(hits).toEqual([]);
  });
});

describe("an e-mail verification link", () => {
  it("shows the verification's code in the player's words, not the reply's description", async () => {
    const verified = { success: true, code: "ACCOUNT_VERIFIED", description: "Account verified successfully" };
    const asked: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: Request) => {
        const path = new URL(input.url).pathname;
        if (path === "/bff/config") return Response.json(skinConfig);
        if (path === "/bff/session") return Response.json({ loggedIn: false, login: null });
        if (path !== "/api/player/verifyAccount") return Response.json({ message: "not found" }, { status: 404 });
        asked.push(await input.json());
        return Response.json(verified);
      }),
    );
    const { store } = renderWithProviders(<AuthUrlEffects />, { route: "/home?token=tok1" });
    await waitFor(() => expect(selectNotice(store.getState())).not.toBeNull());
    expect(asked).toEqual([{ token: "tok1", face: "sandbox" }]);
    expect(selectNotice(store.getState())).toMatchObject({ variant: "success", text: "Tu correo electrónico ha sido verificado" });
  });
});
