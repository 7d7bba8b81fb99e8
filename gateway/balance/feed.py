"""The balance stream's feed in this process (`BalanceFeed`): it opens and closes the tabs, hears
the players' notes from the bus and hands their events to the tabs, polls the platform for the
players it leads, and takes what the proxied path tells it (`gateway.balance.sink.BalanceSink`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
import structlog

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import BALANCE, MONEY_CALLS, Route
from gateway.balance.bus.base import Bus
from gateway.balance.tabs import EXPIRED, LOGGED_OUT, Closing, PlayerFeed, SessionEnd, StreamEvent, Tab, tag_of
from gateway.config.settings import EventsSettings
from gateway.http.asgi import Incoming, RequestContext, request_id
from gateway.state.session import Session, Sessions
from gateway.store import StoreUnavailable

if TYPE_CHECKING:
    from gateway.config.live import LiveConfig
    from gateway.config.skins import Skin
    from gateway.state.outcome import Outcome

log = structlog.get_logger("gateway.events")

SEEN_MAX = 100_000
"""Players whose last proxied balance this process remembers (forgotten all at once past it)."""
FOLLOW_UPS_S = (0.5, 2.0)
"""A money call's effect may reach the wallet a moment later (a provider's approval): asked
again this long after it (an event goes out only if the balance changed)."""


class BalanceSource(Protocol):
    """Where the feed's poller reads a player's balance: the platform, asked as the proxied path
    asks it (`gateway.upstream.platform.Platform`)."""

    async def ask(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: Route, session: Session, body: bytes
    ) -> Outcome: ...


class BalanceFeed:
    """The balance stream of this process: its players' tabs (`players`), the bus their notes
    travel by (`bus`), a poller per player, and the bounds on streams (`refusal`)."""

    def __init__(
        self,
        settings: EventsSettings,
        sessions: Sessions,
        platform: BalanceSource,
        config: LiveConfig,
        bus_of: Callable[[BalanceFeed], Bus],
        later: Callable[[Coroutine[Any, Any, Any]], object],
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.platform = platform
        self.config = config
        self.later = later
        self.players: dict[tuple[str, str], PlayerFeed] = {}
        self.streams = 0
        self.per_session: Counter[str] = Counter()
        self.draining = False
        self._seen: dict[tuple[str, str], tuple[int | None, str]] = {}
        """Per player, the hash of the last balance answer read here (None: heard since) and its value."""
        self.bus = bus_of(self)

    # --- streams -----------------------------------------------------------------------------

    def refusal(self, session_id: str) -> tuple[int, str, str] | None:
        """Why one more stream may not open here (status, code, message), or None."""
        if self.draining:
            return 503, "SHUTTING_DOWN", "This server is restarting, please try again"
        if self.streams >= self.settings.per_instance:
            return 503, "STREAMS_FULL", "No room for another stream here, please poll"
        if self.per_session[session_id] >= self.settings.per_session:
            return 429, "TOO_MANY_STREAMS", "This session has as many streams open as it may"
        return None

    async def open(self, skin_id: str, login: str, session_id: str, incoming: Incoming, last_id: str | None) -> Tab:
        """A stream's tab; its first event is the newest balance unless the client has it."""
        key = (skin_id, login.lower())
        player = self.players.get(key)
        if player is None:
            player = self.players[key] = PlayerFeed(skin_id, key[1])
            try:
                await self.bus.join(player)
            except StoreUnavailable:
                if not player.tabs:
                    self.players.pop(key, None)
                raise
            player.poller = asyncio.ensure_future(self._poll_while_watched(player))
        tab = Tab(player, session_id, incoming, self.settings.queue)
        player.tabs.add(tab)
        player.sessions[session_id] += 1
        self.per_session[session_id] += 1
        self.streams += 1
        try:
            current = player.last or await self.bus.current(player)
        except StoreUnavailable:
            current = None
        if current is None:
            player.poll_soon()
        elif current[0] != last_id:
            tab.offer(StreamEvent("balance", *current))
        return tab

    async def close(self, tab: Tab) -> None:
        player = tab.player
        if tab not in player.tabs:
            return
        player.tabs.discard(tab)
        self.streams -= 1
        for counter in (player.sessions, self.per_session):
            counter[tab.session_id] -= 1
            if counter[tab.session_id] <= 0:
                del counter[tab.session_id]
        if player.tabs:
            return
        self.players.pop((player.skin_id, player.login), None)
        if player.poller is not None:
            player.poller.cancel()
        with contextlib.suppress(StoreUnavailable):
            await self.bus.leave(player)

    def drain(self) -> None:
        """SIGTERM: every stream closes with its retry hint; browsers reconnect elsewhere."""
        self.draining = True
        self._close_all("draining")

    def lost(self) -> None:
        """Redis went away: notes may be missed, so no stream stays open on this instance."""
        self._close_all("unavailable")

    def _close_all(self, reason: Closing) -> None:
        for player in list(self.players.values()):
            for tab in list(player.tabs):
                tab.close(reason)

    # --- notes (from the bus) ----------------------------------------------------------------

    def heard(self, skin_id: str, login: str, note: str) -> None:
        player = self.players.get((skin_id, login))
        if player is None:
            return
        kind, _, rest = note.partition("\n")
        if kind == "b":
            event_id, _, value = rest.partition("\n")
            player.last = (event_id, value)
            if (skin_id, login) in self._seen:  # a later read of the value before this one is new again
                self._seen[(skin_id, login)] = (None, value)
            for tab in list(player.tabs):
                tab.offer(StreamEvent("balance", event_id, value))
        elif kind == "p":
            player.poll_soon(FOLLOW_UPS_S)
        elif kind == "r":
            tag, _, number = rest.partition("\n")
            for tab in list(player.tabs):
                if tag == tab.tag:
                    tab.offer(StreamEvent("reality", "", f'{{"answered":{int(number)}}}'))
        elif kind == "e":
            tag, _, reason = rest.partition("\n")
            for tab in list(player.tabs):
                if tag in ("*", tab.tag):
                    tab.finish(reason)  # type: ignore[arg-type]

    # --- what the proxied path tells (`BalanceSink`, from `gateway.pipeline.observe`) -----------

    def on_outcome(
        self, skin_id: str, route: Route, login: str | None, before: str, session: Session, outcome: Outcome
    ) -> None:
        """A proxied call's answer: a session that ended, a login, a money call, a balance read
        (which answers, and what each does: `gateway.balance.sink.BalanceSink`)."""
        if login is None:
            if route.session == "starts" and session.data.logged_in and session.data.login:
                self.later(self._publish(skin_id, session.data.login, "p"))  # at login: the newest balance
            return
        if not session.data.logged_in:
            reason: SessionEnd = LOGGED_OUT if route.session == "ends" else EXPIRED
            self.later(self.announce_session_end(skin_id, login, before, reason))
        elif route is BALANCE and outcome.status == 200:  # before the set: the read polled most
            self._balance_read(skin_id, login.lower(), outcome.body)
        elif route in MONEY_CALLS and outcome.status == 200 and _is_success(outcome.body):
            self.later(self._publish(skin_id, login, "p"))

    def _balance_read(self, skin_id: str, login: str, body: bytes) -> None:
        """Only a value this process has not seen for the player goes to Redis (a logged-in read sends
        Redis nothing); an answer the same to the byte as the last one read is not even parsed."""
        player, digest, last = (skin_id, login), hash(body), self._seen.get((skin_id, login))
        if (last is not None and last[0] == digest) or (value := _balance(body)) is None:
            return
        if len(self._seen) >= SEEN_MAX:
            self._seen.clear()
        self._seen[player] = (digest, value)
        if last is None or last[1] != value:
            self.later(self._quietly(self.bus.store(skin_id, login, value)))

    async def announce_session_end(self, skin_id: str, login: str, session_id: str, reason: SessionEnd) -> None:
        await self._publish(skin_id, login, f"e\n{tag_of(session_id)}\n{reason}")

    async def announce_answer(self, skin_id: str, login: str, session_id: str, number: int) -> None:
        """The session answered its reality check `number`: it closes in every tab of the session."""
        await self._publish(skin_id, login, f"r\n{tag_of(session_id)}\n{number}")

    async def announce_revocation(self, skin_id: str, login: str) -> None:
        """An operator ended every session of the player: every stream of theirs ends."""
        await self._publish(skin_id, login, "e\n*\nrevoked")

    async def _publish(self, skin_id: str, login: str, note: str) -> None:
        await self._quietly(self.bus.publish(skin_id, login.lower(), note))

    async def _quietly(self, call: Awaitable[None]) -> None:
        try:
            await call
        except StoreUnavailable:
            log.warning("events.note_lost")  # the streams close with Redis; the tabs poll meanwhile

    # --- the poller ----------------------------------------------------------------------------

    async def _poll_while_watched(self, player: PlayerFeed) -> None:
        interval = self.settings.interval_s
        while player.tabs:
            was_leading = player.leading
            try:
                player.leading, last_poll = await self.bus.hold(player)
            except StoreUnavailable:
                player.leading, last_poll = False, None
            now = time.monotonic()
            if player.leading and not was_leading and not player.urgent:
                since = time.time() - last_poll if last_poll else interval
                player.next_poll = now + max(0.0, interval - since)  # a taken-over lease keeps the pace
            follow_up = bool(player.follow_ups) and player.follow_ups[0] <= now
            if player.leading and (player.urgent or follow_up or now >= player.next_poll):
                if player.urgent or now >= player.next_poll:
                    player.next_poll = now + interval
                player.urgent = False
                player.follow_ups = [t for t in player.follow_ups if t > now]
                await self._poll(player)
            elif not player.leading:
                player.urgent, player.follow_ups = False, []
            wait = player.next_poll - now if player.leading else interval / 2
            if player.follow_ups:
                wait = min(wait, player.follow_ups[0] - now)
            player.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(player.wake.wait(), max(wait, 0.01))

    async def _poll(self, player: PlayerFeed) -> None:
        """Asks the platform with one of the player's sessions (a session found ended ends its tabs)."""
        skin = next((s for s in self.config.skins.all if s.id == player.skin_id), None)
        if skin is None:
            return
        for session_id in list(player.sessions):
            tab = next((t for t in player.tabs if t.session_id == session_id), None)
            if tab is None:
                continue
            try:
                session = await self.sessions.load(skin.id, session_id)
            except StoreUnavailable:
                return
            if not session.data.logged_in:
                await self.announce_session_end(skin.id, player.login, session_id, "expired")
                continue
            ctx = RequestContext(request_id(None), skin=skin.id, route=BALANCE.name, route_class=BALANCE.policy)
            outcome = await self.platform.ask(tab.incoming, ctx, skin, BALANCE, session, b"{}")
            expired = outcome.failure is None and _code(outcome.body) == SESSION_EXPIRED
            if expired:
                session.log_out()
            with contextlib.suppress(StoreUnavailable):  # the platform's cookies of this call, or the end
                await self.sessions.save(skin.id, session)
            if expired:
                await self.announce_session_end(skin.id, player.login, session_id, "expired")
                continue
            value = _balance(outcome.body) if outcome.failure is None and outcome.status == 200 else None
            if value is not None:
                await self._quietly(self.bus.store(skin.id, player.login, value))
            return


def _decoded(body: bytes) -> object:
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None


def _code(body: bytes) -> object:
    data = _decoded(body)
    return data.get("code") if isinstance(data, dict) else None


def _is_success(body: bytes) -> bool:
    data = _decoded(body)
    return isinstance(data, dict) and data.get("success") is not False and data.get("code") != SESSION_EXPIRED


def _balance(body: bytes) -> str | None:
    """The platform's balance answer as the SPA's balance entry holds it (canonical JSON), or None."""
    data = _decoded(body)
    if not isinstance(data, dict) or not isinstance(data.get("values"), list) or data.get("code"):
        return None
    return msgspec.json.encode(data, order="sorted").decode()
