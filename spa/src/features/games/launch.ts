import type {
  BtiLaunch,
  EzugiLaunch,
  Game,
  GenericLaunch,
  LiveCasinoSession,
  MancalaLaunch,
  PragmaticLaunch,
  ProviderUrlLaunch,
  RubyPlayLaunch,
} from "../../api/contracts.gen";
import type { Locale } from "../../i18n/language";
import { pathOf } from "../../api/routes";

/**
 * What a player can launch. Paths that carry the
 * session on the platform (ezugi, habanero, endorphina, bti) are called without it: the
 * BFF fills the `{wsession}` segment server-side, so no URL the browser builds holds it.
 */
export type LaunchTarget =
  | { kind: "game"; game: Pick<Game, "gameId" | "Id" | "gameName" | "provider"> }
  | { kind: "liveTable"; table: LiveTable }
  | { kind: "ezugi" }
  | { kind: "sportsGame" }
  | { kind: "sportsbook" };

/** Live-casino tables: blackjack 219, roulette 36. */
export const LIVE_TABLES = { blackjack: "219", roulette: "36" } as const;
export type LiveTable = (typeof LIVE_TABLES)[keyof typeof LIVE_TABLES];

export interface LaunchCall {
  url: string;
  method: "GET" | "POST";
  body?: Record<string, string>;
}

export interface LaunchContext {
  locale: Locale;
  currency: string;
  sportsbookUrl: string | null;
}

/** The BFF call that launches `target`. */
export function launchCall(target: LaunchTarget): LaunchCall {
  switch (target.kind) {
    case "ezugi":
      return { url: pathOf("ezugiLaunch"), method: "GET" };
    case "sportsbook":
      return { url: pathOf("btiLaunch"), method: "GET" };
    case "liveTable":
      return { url: pathOf("vivoLaunch"), method: "POST", body: { gameId: target.table, provider: "vivogaming" } };
    case "sportsGame":
      return { url: pathOf("genericLaunch"), method: "POST", body: { gameMode: "", gameId: "", provider: "evenBet" } };
    case "game":
      return gameCall(target.game);
  }
}

function gameCall(game: Pick<Game, "gameId" | "Id" | "provider">): LaunchCall {
  const provider = (game.provider ?? "").toLowerCase();
  const body = { gameId: game.gameId, provider };
  switch (provider) {
    case "pragmaticplay":
    case "pragmaticplaylivecasino":
      return { url: pathOf("pragmaticLaunch", { gameId: game.gameId }), method: "POST", body };
    case "mancala":
      return { url: pathOf("mancalaLaunch", { Id: game.Id }), method: "POST", body: { gameId: game.Id, provider } };
    case "rubyplay":
      return { url: pathOf("rubyPlayLaunch", { gameId: game.gameId }), method: "POST", body };
    case "habanero":
      return { url: pathOf("habaneroLaunch", { gameId: game.gameId }), method: "GET" };
    case "endorphina":
      return { url: pathOf("endorphinaLaunch", { gameId: game.gameId }), method: "GET" };
    case "vibra":
      return { url: pathOf("vibraLaunch"), method: "POST", body };
    default:
      return { url: pathOf("genericLaunch"), method: "POST", body: { gameMode: "real_play", gameId: game.gameId, provider } };
  }
}

export type LaunchReply = GenericLaunch &
  PragmaticLaunch &
  MancalaLaunch &
  RubyPlayLaunch &
  ProviderUrlLaunch &
  EzugiLaunch &
  LiveCasinoSession &
  BtiLaunch;

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base, window.location.origin);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** Ezugi and the live dealer speak English or Spanish only. */
function liveLanguage(locale: Locale): "en" | "es" {
  return locale === "en" ? "en" : "es";
}

/** The sports game's `lang` follows the site's language. */
export function withLanguage(gameUrl: string, locale: Locale): string {
  return withQuery(gameUrl, { lang: locale });
}

/** The frame address from a launch answer, or null when the answer does not launch anything. */
export function launchUrl(target: LaunchTarget, reply: LaunchReply, ctx: LaunchContext): string | null {
  if (reply.success === false) return null;
  switch (target.kind) {
    case "ezugi":
      if (!reply.EZUGI_GAME_URL || !reply.EZUGI_TOKEN) return null;
      return withQuery(reply.EZUGI_GAME_URL, {
        token: reply.EZUGI_TOKEN,
        operatorId: reply.EZUGI_OPERATOR_ID ?? "",
        clientType: "html5",
        language: liveLanguage(ctx.locale),
      });
    case "liveTable":
      if (!reply.menUrl || !reply.token) return null;
      return withQuery(reply.menUrl, {
        token: reply.token,
        operatorId: reply.operatorId ?? "",
        tableId: target.table,
        serverId: reply.serverId ?? "",
        language: liveLanguage(ctx.locale),
        currency: ctx.currency,
      });
    case "sportsbook":
      if (!ctx.sportsbookUrl || !reply.token) return null;
      return withQuery(ctx.sportsbookUrl, { token: reply.token, lang: ctx.locale });
    case "sportsGame":
      return reply.status === 200 && reply.gameUrl ? withLanguage(reply.gameUrl, ctx.locale) : null;
    case "game":
      return gameUrl(target.game.provider ?? "", reply);
  }
}

function gameUrl(provider: string, reply: LaunchReply): string | null {
  switch (provider.toLowerCase()) {
    case "pragmaticplay":
    case "pragmaticplaylivecasino":
    case "habanero":
    case "endorphina":
      return reply.gameURL ?? null;
    case "mancala":
      return reply.IframeUrl ?? null;
    case "rubyplay":
      return reply.URL ?? null;
    default:
      // the generic launcher (and vibra): only status 200 launches
      return reply.status === 200 && reply.gameUrl ? reply.gameUrl : null;
  }
}
