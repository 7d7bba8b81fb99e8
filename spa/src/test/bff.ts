import { vi } from "vitest";

import type { SportEvent } from "../api/contracts.gen";
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

/**
 * Holds the stub's answers to the requests `held` picks until the returned release is called,
 * then answers them with `answer` (the stub's own answer when none is given); others answer at once.
 */
export function holdAnswers(fetchMock: ReturnType<typeof stubBff>, held: (url: URL) => boolean, answer?: () => Response): () => void {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const stubbed = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(input);
    if (!held(new URL(request.url))) return stubbed(input);
    await gate;
    return answer ? answer() : stubbed(input);
  });
  return release;
}

/** One soccer match with a 1X2 market (Tie, Home, Away: selections `s-Tie`, `s-Home`, `s-Away` at 2, 2.25, 2.5). */
export const soccerEvent: SportEvent = {
  _id: "e1",
  leagueName: "Liga",
  sportName: "Soccer",
  startEventDate: "2026-11-24T20:00:00Z",
  markets: [
    {
      _id: "m1",
      marketType: { _id: "ML0" },
      startDate: "2026-11-24T20:00:00Z",
      homeTeam: "River",
      awayTeam: "Boca",
      selections: ["Tie", "Home", "Away"].map((o, n) => ({ _id: `s-${o}`, outcomeType: o, trueOdds: 2 + n / 4, name: o })),
    },
  ],
};
