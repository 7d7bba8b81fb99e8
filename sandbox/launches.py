"""Game launches (`/rest` and two `/api/player` calls): each provider's launch answers in its
own shape and points at a small demo game page this sandbox serves.

Every launch mints a fresh token; the session id never appears in an answer (the paths
that carry it are filled by the gateway, docs/platform.md). A launch for a provider the
site has switched off is refused.
"""

from __future__ import annotations

import secrets
import zlib
from collections.abc import Mapping
from html import escape
from urllib.parse import quote, urlencode

from litestar import MediaType, get
from litestar.params import FromPath, FromQuery

from contracts.games import (
    BtiLaunch,
    EzugiLaunch,
    GameLaunchRequest,
    GenericLaunch,
    LiveCasinoSession,
    MancalaLaunch,
    MrGameUrlRequest,
    PragmaticLaunch,
    ProviderGameRequest,
    ProviderUrlLaunch,
    RubyPlayLaunch,
)
from contracts.locales import DEFAULT_LOCALE
from sandbox import content, media
from sandbox.platform import Call, Registry, failure
from sandbox.texts import Words, locale_of, words

routes = Registry()

DEMO_PAGE = "/_sandbox/game"
PROVIDER_DISABLED = "Provider disabled"
# Names the front ends send for a provider, where they differ from the site's provider list.
ALIASES: Mapping[str, str] = {
    "evenbet": "evenbetpoker",
    "vivo": "vivogaming",
    "pragmatic": "pragmaticplay",
    "ruby": "rubyplay",
}
PRAGMATIC_FAMILY = ("pragmaticplay", "pragmaticplaylivecasino")
TABLES: Mapping[str, str] = {"219": "Blackjack", "36": "Roulette"}


def _ticket() -> str:
    """A launch token: fresh per launch, never the session id."""
    return secrets.token_urlsafe(18)


def _operator_id(provider: str, site_id: str) -> str:
    """A stable numeric operator (or server) id per provider and site."""
    return str(10000 + zlib.crc32(f"{provider}:{site_id}".encode()) % 90000)


def _enabled(call: Call, provider: str) -> bool:
    return call.site.providers.get(provider, False)


def _require(call: Call, provider: str) -> None:
    if not _enabled(call, provider):
        raise failure(PROVIDER_DISABLED, "PROVIDER_DISABLED")


def game_page(call: Call, provider: str, game_id: str, lang: str = DEFAULT_LOCALE, **extra: str) -> str:
    """The demo page address for one launch, with a fresh token and the game's name."""
    listed = content.find_game(call.site, provider, game_id)
    name = listed.gameName if listed else media.title_of(media.slug(game_id))
    query = urlencode({"token": _ticket(), "name": name, "lang": lang, **extra})
    return f"{call.base_url}{DEMO_PAGE}/{quote(provider, safe='')}/{quote(game_id, safe='')}?{query}"


# --- Session id in the path (GET) ------------------------------------------------------


@routes("ezugiLaunch")
async def ezugi_launch(call: Call) -> EzugiLaunch:
    """The client builds the frame from URL, token, operator id, client type html5 and language."""
    _require(call, "ezugi")
    return EzugiLaunch(
        EZUGI_GAME_URL=f"{call.base_url}{DEMO_PAGE}/ezugi/lobby",
        EZUGI_TOKEN=_ticket(),
        EZUGI_OPERATOR_ID=_operator_id("ezugi", call.site.site_id),
    )


@routes("habaneroLaunch")
async def habanero_launch(call: Call) -> ProviderUrlLaunch:
    _require(call, "habanero")
    return ProviderUrlLaunch(gameURL=game_page(call, "habanero", call.path_params["gameId"]))


@routes("endorphinaLaunch")
async def endorphina_launch(call: Call) -> ProviderUrlLaunch:
    _require(call, "endorphina")
    return ProviderUrlLaunch(gameURL=game_page(call, "endorphina", call.path_params["gameId"]))


@routes("btiLaunch")
async def bti_launch(call: Call) -> BtiLaunch:
    """The sportsbook frame's token and the player's cash."""
    _require(call, "bti")
    return BtiLaunch(token=_ticket(), balance=float(call.player.main.cash))


# --- Provider launches (POST {gameId, provider}) -------------------------------------------


@routes("pragmaticLaunch")
async def pragmatic_launch(call: Call) -> PragmaticLaunch:
    """Slots and the live casino share the path; the body's provider says which one."""
    request = call.body(ProviderGameRequest)
    provider = request.provider if request.provider in PRAGMATIC_FAMILY else "pragmaticplay"
    _require(call, provider)
    return PragmaticLaunch(gameURL=game_page(call, provider, call.path_params["gameId"]))


@routes("mancalaLaunch")
async def mancala_launch(call: Call) -> MancalaLaunch:
    _require(call, "mancala")
    return MancalaLaunch(IframeUrl=game_page(call, "mancala", call.path_params["Id"]))


@routes("rubyPlayLaunch")
async def ruby_play_launch(call: Call) -> RubyPlayLaunch:
    _require(call, "rubyplay")
    return RubyPlayLaunch(URL=game_page(call, "rubyplay", call.path_params["gameId"]))


@routes("vivoLaunch")
async def vivo_launch(call: Call) -> LiveCasinoSession:
    """The client builds the table frame on `menUrl` from token, operatorId, table id and serverId."""
    _require(call, "vivogaming")
    site_id = call.site.site_id
    return LiveCasinoSession(
        token=_ticket(),
        operatorId=_operator_id("vivogaming", site_id),
        serverId=_operator_id("vivoserver", site_id),
        menUrl=f"{call.base_url}{DEMO_PAGE}/vivogaming/live",
    )


@routes("vibraLaunch")
async def vibra_launch(call: Call) -> GenericLaunch:
    request = call.body(ProviderGameRequest)
    return _generic(call, "vibra", request.gameId or "lobby", DEFAULT_LOCALE)


# --- Generic launchers (status 200 is success) -----------------------------------------------


def _provider(name: str) -> str:
    return ALIASES.get(name.lower(), name.lower())


def _generic(call: Call, provider: str, game_id: str, lang: str, **extra: str) -> GenericLaunch:
    """The generic shape: refusals keep HTTP 200 and say 404 (unknown) or 403 (disabled) in `status`."""
    if provider not in call.site.providers:
        return GenericLaunch(success=False, status=404, code="UNKNOWN_PROVIDER", description="Unknown provider")
    if not _enabled(call, provider):
        return GenericLaunch(success=False, status=403, code="PROVIDER_DISABLED", description=PROVIDER_DISABLED)
    return GenericLaunch(gameUrl=game_page(call, provider, game_id, lang, **extra))


@routes("genericLaunch")
async def generic_launch(call: Call) -> GenericLaunch:
    """The sports game (evenBet) sends empty mode and id: its lobby opens, `lang=en` for the SPA to rewrite."""
    request = call.body(GameLaunchRequest)
    if request.gameMode not in ("real_play", ""):
        return GenericLaunch(success=False, status=400, code="BAD_REQUEST", description="Unknown game mode")
    return _generic(call, _provider(request.provider), request.gameId or "lobby", "en")


@routes("mrGameURL")
async def mr_game_url(call: Call) -> GenericLaunch:
    request = call.body(MrGameUrlRequest)
    return _generic(
        call, _provider(request.provider), request.gameId, request.lang or DEFAULT_LOCALE, platform="desktop"
    )


@routes("mPlayGameURL")
async def m_play_game_url(call: Call) -> GenericLaunch:
    request = call.body(MrGameUrlRequest)
    return _generic(
        call, _provider(request.provider), request.gameId, request.lang or DEFAULT_LOCALE, platform="mobile"
    )


# --- The demo game page ---------------------------------------------------------------------

SPIN: Words = words("demoGame.spin")
DEMO_NOTE: Words = words("demoGame.note")


@get(f"{DEMO_PAGE}/{{provider:str}}/{{game_id:str}}", media_type=MediaType.HTML, sync_to_thread=False)
def demo_game_page(
    provider: FromPath[str],
    game_id: FromPath[str],
    token: FromQuery[str | None] = None,
    name: FromQuery[str | None] = None,
    lang: FromQuery[str] = DEFAULT_LOCALE,
    tableId: FromQuery[str | None] = None,
) -> str:
    """A playable-looking demo: the game's name, its provider, spinning reels and the launch
    token cut short."""
    language = locale_of(lang)
    title = name or media.title_of(media.slug(game_id)) or game_id
    label = media.PROVIDER_LABELS.get(provider, provider)
    table = f"Table {tableId} · {TABLES.get(tableId, 'Live')}" if tableId else ""
    shown_token = f"{token[:6]}…" if token else "none"
    return DEMO_HTML.format(
        lang=escape(language),
        title=escape(title),
        provider=escape(label),
        table=escape(table),
        token=escape(shown_token),
        spin=escape(SPIN[language]),
        note=escape(DEMO_NOTE[language]),
    )


DEMO_HTML = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · {provider}</title>
<style>
  body {{ margin: 0; min-height: 100vh; display: grid; place-items: center; color: #fff;
         font-family: Verdana, sans-serif; background: radial-gradient(circle at top, #3b1a6b, #0d0620); }}
  main {{ text-align: center; padding: 24px; }}
  h1 {{ margin: 0 0 4px; font-size: 28px; }}
  .provider {{ opacity: .75; margin: 0 0 16px; }}
  .reels {{ display: flex; gap: 10px; justify-content: center; margin: 16px 0; }}
  .reel {{ width: 90px; height: 270px; overflow: hidden; border-radius: 12px; background: #fff1;
          border: 2px solid #ffd34d; display: flex; flex-direction: column; }}
  .reel span {{ height: 90px; line-height: 90px; font-size: 48px; }}
  .reel.spinning span {{ animation: roll .15s linear infinite; filter: blur(2px); }}
  @keyframes roll {{ from {{ transform: translateY(-90px); }} to {{ transform: translateY(90px); }} }}
  button {{ font-size: 20px; padding: 10px 36px; border: 0; border-radius: 24px; background: #ffd34d;
           color: #2b1600; font-weight: 700; cursor: pointer; }}
  .meta {{ margin-top: 16px; font-size: 12px; opacity: .6; }}
  #result {{ min-height: 24px; font-weight: 700; color: #ffd34d; }}
</style>
</head>
<body>
<main>
  <h1>{title}</h1>
  <p class="provider">{provider} {table}</p>
  <div class="reels" id="reels">
    <div class="reel"><span>🍒</span><span>7</span><span>🔔</span></div>
    <div class="reel"><span>⭐</span><span>7</span><span>🍋</span></div>
    <div class="reel"><span>💎</span><span>7</span><span>🍒</span></div>
  </div>
  <p id="result"></p>
  <button id="spin" type="button">{spin}</button>
  <p class="meta">{note} Token {token}</p>
</main>
<script>
  const symbols = ["🍒", "🍋", "🔔", "⭐", "7", "💎"];
  const reels = [...document.querySelectorAll(".reel")];
  const pick = () => symbols[Math.floor(Math.random() * symbols.length)];
  document.getElementById("spin").addEventListener("click", (event) => {{
    event.target.disabled = true;
    document.getElementById("result").textContent = "";
    reels.forEach((reel) => reel.classList.add("spinning"));
    reels.forEach((reel, i) => setTimeout(() => {{
      reel.classList.remove("spinning");
      reel.querySelectorAll("span").forEach((cell) => {{ cell.textContent = pick(); }});
      if (i === reels.length - 1) {{
        const middle = reels.map((r) => r.children[1].textContent);
        document.getElementById("result").textContent = middle.every((s) => s === middle[0]) ? "WIN!" : "";
        event.target.disabled = false;
      }}
    }}, 600 + i * 300));
  }});
</script>
</body>
</html>
"""
