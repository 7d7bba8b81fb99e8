import { vi } from "vitest";

import type { BffConfig } from "../lib/config/types";
import type { BffSession } from "../lib/session/types";

export const skinConfig: BffConfig = {
  skin: {
    id: "sandbox",
    name: "Casino Sandbox",
    currency: "ARS",
    currencySymbol: "$",
    defaultLocale: "es",
    locales: ["es", "pt", "en"],
    branding: {
      logo: "/bff/logo.svg",
      primary: "#f5b301",
      accent: "#e23d5b",
      background: "#0d0f1a",
      surface: "#171a2b",
      text: "#f3f4f8",
      operatorLine: "Operated by Sandbox Gaming Ltd.",
    },
    features: { deposits: true, withdrawals: true },
    sportsbookUrl: null,
    pokerDownloads: {},
  },
};

export const loggedOut: BffSession = { loggedIn: false, login: null };

/**
 * Replaces global fetch with a BFF that answers GET <path> with the JSON given for it
 * and 404 for anything else. Returns the mock, to assert on the calls.
 */
export function stubBff(responses: Record<string, unknown>) {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(input);
    const body = responses[new URL(request.url).pathname];
    return Promise.resolve(body === undefined ? Response.json({ message: "not found" }, { status: 404 }) : Response.json(body));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}
