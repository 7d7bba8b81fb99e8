"""Game launch requests and the response shape of each provider."""

from __future__ import annotations

from contracts.base import PlatformReply, Wire


class GameLaunchRequest(Wire, kw_only=True):
    """The generic launcher: gameMode `real_play`; the sports game sends empty mode and id
    with provider `evenBet`."""

    gameMode: str = "real_play"
    gameId: str = ""
    provider: str


class ProviderGameRequest(Wire, kw_only=True):
    """Many provider launches send `{gameId, provider}` (docs/platform.md)."""

    gameId: str | None = None
    provider: str | None = None


class GenericLaunch(PlatformReply, kw_only=True):
    """Generic launch: status 200 is success (an integer, not the HTTP status)."""

    status: int = 200
    gameUrl: str | None = None


class PragmaticLaunch(PlatformReply, kw_only=True):
    gameURL: str | None = None


class MancalaLaunch(PlatformReply, kw_only=True):
    IframeUrl: str | None = None


class RubyPlayLaunch(PlatformReply, kw_only=True):
    URL: str | None = None


class EzugiLaunch(PlatformReply, kw_only=True):
    EZUGI_GAME_URL: str | None = None
    EZUGI_TOKEN: str | None = None
    EZUGI_OPERATOR_ID: str | None = None


class LiveCasinoSession(PlatformReply, kw_only=True):
    """Vivo live-casino session data; the frame URL is built on the live-game host from
    token, operatorId, table id (219 blackjack, 36 roulette) and serverId."""

    token: str | None = None
    operatorId: str | None = None
    serverId: str | None = None
    menUrl: str | None = None


class BtiLaunch(PlatformReply, kw_only=True):
    """bti sports: token and balance."""

    token: str | None = None
    balance: float | None = None


class ProviderUrlLaunch(PlatformReply, kw_only=True):
    """habanero and endorphina: 'not shown'. Chosen: the pragmatic shape, `gameURL`."""

    gameURL: str | None = None


class MrGameUrlRequest(Wire, kw_only=True):
    gameId: str
    provider: str
    lang: str | None = None
