import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import i18n from "../i18n";
import { renderAppAt } from "../test/app";
import { skinConfig } from "../test/bff";

const SLOW_MS = 1600; // answers later than the spec's 1 s checks

/** A BFF whose `slow` paths answer SLOW_MS late (a fresh tab on a slow platform). */
function slowPlatform(responses: Record<string, unknown>, slow: readonly string[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      if (slow.includes(path)) await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      const body = responses[path];
      return body === undefined ? Response.json({ message: "not found" }, { status: 404 }) : Response.json(body);
    }),
  );
}

/** Records every time `text` shows on the page, however briefly. */
function watchFor(text: string): () => boolean {
  let seen = false;
  const observer = new MutationObserver(() => {
    seen ||= document.body.textContent?.includes(text) ?? false;
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return () => {
    observer.disconnect();
    return seen;
  };
}

const player = (profile: Record<string, unknown>, providers: { name: string; status: boolean }[] = []) => ({
  "/bff/config": skinConfig,
  "/bff/session": { loggedIn: true, login: "demo1" },
  "/api/player/getProfile": { success: true, login: "demo1", ...profile },
  "/api/player/getPlayerProviderList": providers,
  "/api/cashier/balance": { success: true, values: [] },
  "/api/cashier/depositSystems": { success: true, paymentSystems: [] },
  "/api/cashier/getPaymentSystems": { success: true, paymentSystems: [] },
});

afterEach(() => vi.unstubAllGlobals());

describe("the timed checks decide on the answers, not on a flag not written yet", { timeout: 15_000 }, () => {
  it("never shows /deposit to a player whose profile, answering late, has deposits off", async () => {
    slowPlatform(player({ deposits: 0 }), ["/api/player/getProfile"]);
    const seen = watchFor(i18n.t("deposit.title", { ns: "cashier" }));
    const { router } = renderAppAt("/deposit");
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"), { timeout: 4000 });
    expect(seen()).toBe(false);
  });

  it("shows /deposit once a late profile says deposits are on", async () => {
    slowPlatform(player({ deposits: 1 }), ["/api/player/getProfile"]);
    const { router } = renderAppAt("/deposit");
    expect(await screen.findByRole("heading", { level: 1, name: i18n.t("deposit.title", { ns: "cashier" }) }, { timeout: 4000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/deposit");
  });

  it("sends a direct visit to /withdraw home when the skin switches withdrawals off", async () => {
    const skin = { ...skinConfig.skin, features: { deposits: true, withdrawals: false } };
    slowPlatform({ ...player({ withdrawal: 1 }), "/bff/config": { skin } }, []);
    const seen = watchFor(i18n.t("withdraw.title", { ns: "cashier" }));
    const { router } = renderAppAt("/withdraw");
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"), { timeout: 4000 });
    expect(seen()).toBe(false);
  });

  it("keeps an entitled player on /Events when the provider list answers late", async () => {
    slowPlatform(player({}, [{ name: "evenbetpoker", status: true }]), ["/api/player/getPlayerProviderList"]);
    const { router } = renderAppAt("/Events");
    expect(await screen.findByRole("heading", { level: 1 }, { timeout: 4000 })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(router.state.location.pathname).toBe("/Events");
  });

  it("sends a player without the Events flag home, once the late list says so", async () => {
    slowPlatform(player({}, [{ name: "evenbetpoker", status: false }]), ["/api/player/getPlayerProviderList"]);
    const { router } = renderAppAt("/Events");
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"), { timeout: 4000 });
  });
});
