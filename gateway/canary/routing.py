"""Which side of a skin's canary a request goes to: the pipeline's canary stage, after the session.

A player is given a side when they sign in (`route.session == "starts"`) while the skin's canary is
live, the new side with the step's share as its probability, and keeps it to the session's end: its
base URL is pinned in the session (`SessionData.pins`), the old side's too, so that no player
moves between platforms and no deposit is split across them. A session signed in before the canary
started follows the old side while it is live, and while a promoted one drains. A pin that no
longer leads anywhere (its canary was rolled back or aborted, or its drain is over) ends the
session at its next call: the platform's own `SESSION_EXPIRED` reply, and the player signs in again
on the skin's configured upstream. A call already in flight finishes where it started: a request
takes its target once.

Visitors (not signed in) and content reads follow the step's share by a browser key, the session
cookie's value when the browser has one, else the client's address: a hash fraction under the share
is the new side, so one browser sees one side while the share holds, and a rising share never
moves a browser from the new side back to the old. Content copies and flights of the new side are
kept apart from the old side's (`Exchange.variant`).

With no canary on the skin and no pin in the session this stage costs one dict lookup.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, cast

import msgspec

from contracts.catalogue import Upstream
from gateway.canary.model import Canary, Side
from gateway.config.skins import Skin
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.errors import store_unavailable
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.observe import session_expired
from gateway.state.session import Session, SessionData, Sessions
from gateway.store import StoreUnavailable


class Board(Protocol):
    """The canaries this instance knows (`gateway.canary.store.CanaryBoard`): read without I/O."""

    def current(self, skin: str) -> Canary | None: ...


def fraction(canary_id: str, key: str) -> float:
    """Where `key` falls in [0, 1) for this canary: the same on every instance, and another
    canary's draw is independent of this one's."""
    digest = hashlib.sha256(f"{canary_id}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def side_of(canary: Canary, key: str) -> Side:
    return "new" if fraction(canary.id, key) < canary.share else "old"


def draining(canary: Canary, now: float) -> bool:
    """A promoted canary whose old side's sessions still keep the old upstream."""
    return canary.state == "promoted" and canary.drain_until is not None and now < canary.drain_until


def pin_holds(pin: str, configured: str, canary: Canary | None, now: float) -> bool:
    """Whether a pinned base URL still leads somewhere: the skin's configured one, the live
    canary's new one, or a draining promoted canary's old one."""
    if pin == configured:
        return True
    if canary is None:
        return False
    return (canary.live and pin == canary.after) or (draining(canary, now) and pin == canary.before)


def player_base(data: SessionData, canary: Canary, configured: str, now: float) -> str:
    """A signed-in (or signing-in) player's base URL on the canary's upstream: their pin; the old
    one for a session older than the canary while it runs or drains; else the skin's."""
    pin = data.pins.get(canary.upstream)
    if pin is not None:
        return pin
    if (canary.live or draining(canary, now)) and data.created < canary.started:
        return canary.before
    return configured


@dataclass
class CanaryStage:
    board: Board
    sessions: Sessions
    cookie: str
    """The session cookie's name: a browser's key for visitors and content."""
    proxies: TrustedProxies
    """Who the client is, for a browser without the cookie (the guard reads no address for content)."""
    clock: Callable[[], float] = time.time
    _skins: dict[tuple[str, str, str], tuple[Skin, Skin]] = field(default_factory=dict)

    async def run(self, x: Exchange) -> Outgoing | None:
        skin, route = x.site()
        canary = self.board.current(skin.id)
        data = x.session.data
        if canary is None and not data.pins:
            return None
        now = self.clock()
        if route.session == "starts":
            self.assign(x, canary)
        elif data.logged_in and data.pins and not self._pins_hold(skin, data, canary, now):
            return await self.end(x)
        if canary is None or route.upstream != canary.upstream:
            return None
        configured = skin.upstreams.base(route.upstream)
        base, side = self.choose(x, canary, configured, now)
        if base != configured:
            x.skin = self.routed(skin, canary.upstream, base)
        if canary.live:
            x.ctx.canary = (canary.id, side)
        return None

    def assign(self, x: Exchange, canary: Canary | None) -> None:
        """A sign-in: both sides pinned while a canary is live (its share, on the session's id
        before the login rotates it); none otherwise, whatever a failed attempt left."""
        data = x.session.data
        if canary is None or not canary.live:
            data.pins, data.canary = {}, None
            return
        side = side_of(canary, x.session.id)
        data.pins = {canary.upstream: canary.after if side == "new" else canary.before}
        data.canary = canary.id

    def choose(self, x: Exchange, canary: Canary, configured: str, now: float) -> tuple[str, Side]:
        """The base URL and side of a call on the canary's upstream (`configured`: the skin's)."""
        data = x.session.data
        if data.logged_in or (x.route is not None and x.route.session == "starts"):
            base = player_base(data, canary, configured, now)
            return base, "new" if base == canary.after else "old"
        if not canary.live:
            return configured, "old"
        key = x.incoming.cookie(self.cookie) or x.address or address_key(self.proxies.client_ip(x.incoming))
        side = side_of(canary, key)
        return canary.after if side == "new" else canary.before, side

    def for_session(self, skin: Skin, session: Session, upstream: Upstream, ctx: RequestContext) -> Skin:
        """The skin as a signed-in player's calls off the proxied path see it (the balance stream,
        `/bff/*`'s own calls: `gateway.upstream.platform.Platform`): their side's base URL, and the
        side on `ctx` (the new side's breaker; a `/bff/*` request's figures). A pin that no longer
        holds is left to the player's next proxied call to end."""
        canary = self.board.current(skin.id)
        data = session.data
        if canary is None or canary.upstream != upstream or not data.logged_in:
            return skin
        configured = skin.upstreams.base(upstream)
        base = player_base(data, canary, configured, self.clock())
        if canary.live:
            ctx.canary = (canary.id, "new" if base == canary.after else "old")
        return skin if base == configured else self.routed(skin, upstream, base)

    def _pins_hold(self, skin: Skin, data: SessionData, canary: Canary | None, now: float) -> bool:
        for upstream, pin in data.pins.items():
            configured = skin.upstreams.base(cast(Upstream, upstream))
            ours = canary if canary is not None and canary.upstream == upstream else None
            if not pin_holds(pin, configured, ours, now):
                return False
        return True

    async def end(self, x: Exchange) -> Outgoing:
        """A session pinned to an upstream that is gone: ended here, and the player told so as the
        platform would (`SESSION_EXPIRED`); they sign in again on the skin's own upstream."""
        x.session.log_out()
        try:
            await self.sessions.save(x.site()[0].id, x.session, x.address)
        except StoreUnavailable:
            return store_unavailable(x.ctx)
        return session_expired(x)

    def routed(self, skin: Skin, upstream: str, base: str) -> Skin:
        """The skin with one upstream's base URL replaced, made once per skin version and URL."""
        key = (skin.id, upstream, base)
        found = self._skins.get(key)
        if found is not None and found[0] is skin:
            return found[1]
        if len(self._skins) >= 256:  # a few skins times two sides; bounded all the same
            self._skins.clear()
        upstreams = msgspec.structs.replace(skin.upstreams, **{upstream: base})
        copy = msgspec.structs.replace(skin, upstreams=upstreams)
        self._skins[key] = (skin, copy)
        return copy
