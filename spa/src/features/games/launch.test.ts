import { describe, expect, it } from "vitest";

import { launchCall, launchUrl, type LaunchContext, type LaunchTarget } from "./launch";

const ctx: LaunchContext = { locale: "pt", currency: "ARS", sportsbookUrl: "https://sports.example/bti" };
const game = (provider: string, gameId = "g-1", Id = "1001"): LaunchTarget => ({
  kind: "game",
  game: { provider, gameId, Id, gameName: "Game" },
});

describe("launchCall", () => {
  it("calls each provider's path, never with a session id", () => {
    expect(launchCall(game("pragmaticplay"))).toEqual({
      url: "/rest/pp/ppToken/g-1",
      method: "POST",
      body: { gameId: "g-1", provider: "pragmaticplay" },
    });
    expect(launchCall(game("mancala")).url).toBe("/rest/mancala/getToken/1001");
    expect(launchCall(game("rubyplay")).url).toBe("/rest/rubyplay/launch/g-1");
    expect(launchCall(game("habanero"))).toEqual({ url: "/rest/habanero/session/g-1", method: "GET" });
    expect(launchCall(game("endorphina"))).toEqual({ url: "/rest/endorphina/endorphinaUrl/g-1", method: "GET" });
    expect(launchCall({ kind: "ezugi" })).toEqual({ url: "/rest/ezugi/session", method: "GET" });
    expect(launchCall({ kind: "sportsbook" })).toEqual({ url: "/rest/bti/btiToken", method: "GET" });
  });

  it("launches other providers through the generic launcher in real play", () => {
    expect(launchCall(game("evolution"))).toEqual({
      url: "/rest/game/launch",
      method: "POST",
      body: { gameMode: "real_play", gameId: "g-1", provider: "evolution" },
    });
  });

  it("sends the sports game with empty mode and id for evenBet", () => {
    expect(launchCall({ kind: "sportsGame" }).body).toEqual({ gameMode: "", gameId: "", provider: "evenBet" });
  });

  it("escapes game ids in paths", () => {
    expect(launchCall(game("rubyplay", "a/b?c")).url).toBe("/rest/rubyplay/launch/a%2Fb%3Fc");
  });
});

describe("launchUrl", () => {
  it("reads each provider's field", () => {
    expect(launchUrl(game("pragmaticplay"), { gameURL: "https://pp/game" }, ctx)).toBe("https://pp/game");
    expect(launchUrl(game("mancala"), { IframeUrl: "https://m/frame" }, ctx)).toBe("https://m/frame");
    expect(launchUrl(game("rubyplay"), { URL: "https://ruby/x" }, ctx)).toBe("https://ruby/x");
  });

  it("acts on the generic launcher only on status 200", () => {
    expect(launchUrl(game("evolution"), { status: 200, gameUrl: "https://evo/x" }, ctx)).toBe("https://evo/x");
    expect(launchUrl(game("evolution"), { status: 403, gameUrl: "https://evo/x" }, ctx)).toBeNull();
    expect(launchUrl(game("vibra"), { success: false, status: 200, gameUrl: "https://v" }, ctx)).toBeNull();
  });

  it("rewrites the sports game's lang to the site's language", () => {
    const url = launchUrl({ kind: "sportsGame" }, { status: 200, gameUrl: "https://evenbet/lobby?token=t&lang=en" }, ctx);
    expect(url).toBe("https://evenbet/lobby?token=t&lang=pt");
  });

  it("builds the ezugi frame from URL, token, operator, html5 and en or es", () => {
    const reply = { EZUGI_GAME_URL: "https://ezugi/lobby", EZUGI_TOKEN: "tok", EZUGI_OPERATOR_ID: "77" };
    expect(launchUrl({ kind: "ezugi" }, reply, ctx)).toBe(
      "https://ezugi/lobby?token=tok&operatorId=77&clientType=html5&language=es",
    );
    expect(launchUrl({ kind: "ezugi" }, reply, { ...ctx, locale: "en" })).toContain("language=en");
  });

  it("builds a live table frame from token, operator, table and server", () => {
    const reply = { menUrl: "https://live/table", token: "t", operatorId: "1", serverId: "2" };
    const url = new URL(launchUrl({ kind: "liveTable", table: "36" }, reply, ctx)!);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ token: "t", operatorId: "1", tableId: "36", serverId: "2", currency: "ARS" });
  });

  it("frames the sportsbook with the launch token and nothing without a sportsbook", () => {
    expect(launchUrl({ kind: "sportsbook" }, { token: "t" }, ctx)).toBe("https://sports.example/bti?token=t&lang=pt");
    expect(launchUrl({ kind: "sportsbook" }, { token: "t" }, { ...ctx, sportsbookUrl: null })).toBeNull();
  });
});
