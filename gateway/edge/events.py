"""`GET /bff/events`: the player's balance as server-sent events, one stream per browser.

The feed behind it (`gateway.balance.feed`) polls the platform once per interval per
player, whatever the number of tabs and instances. Here: who may open a stream (a logged-in
session, within its bounds and its address's connect limit), and the stream itself.

The stream is its own ASGI answer rather than Litestar's `ServerSentEvent`: a write the client
does not take must be bounded in time (a client that never reads is dropped, not buffered for),
and heartbeats are bare comment lines (Litestar's encoder adds an empty `data:` line to each,
which browsers dispatch as a message). It is never compressed (no encoding is applied
to it, whatever `Accept-Encoding` says), and `Cache-Control: no-transform` asks proxies not to.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from litestar import Request, get
from litestar.di import NamedDependency

from gateway.balance.feed import BalanceFeed
from gateway.balance.tabs import StreamEvent, Tab
from gateway.config.settings import EventsSettings
from gateway.config.skins import Skin
from gateway.edge.bff import unknown_site
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import error, rate_limited
from gateway.http.security import cross_site
from gateway.state.ratelimit import RateLimiter
from gateway.state.session import Sessions

log = structlog.get_logger("gateway.events")
LAST_EVENT_ID_LIMIT = 64
STREAM_HEADERS = (
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),  # nginx: pass each event on as it comes
)


class EventStream(Outgoing):
    """A tab's events as `text/event-stream`, until its session ends, the client leaves or stops
    reading, or the instance drains (a `retry:` hint, then closed: the browser reconnects)."""

    __slots__ = ("feed", "settings", "tab")

    def __init__(self, feed: BalanceFeed, tab: Tab, settings: EventsSettings, ctx: RequestContext) -> None:
        super().__init__(200, [*STREAM_HEADERS, (b"x-request-id", ctx.request_id.encode("latin-1"))])
        self.feed, self.tab, self.settings = feed, tab, settings

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        watcher = asyncio.ensure_future(self._watch(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.headers})
            if await self._stream(send):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
            await self.feed.close(self.tab)

    async def _stream(self, send: Any) -> bool:
        """Writes until the stream ends; False when the client stopped taking writes (dropped)."""
        tab, settings = self.tab, self.settings
        if not await self._write(send, b"retry: %d\n: open\n\n" % settings.retry_ms):
            return False
        while True:
            event = await tab.next(settings.heartbeat_s)
            if event is not None:
                if not await self._write(send, encode(event)):
                    return False
                if event.kind == "end":
                    return True
            elif tab.ended is not None:
                if tab.ended == "slow":
                    log.warning("events.dropped_slow_reader")
                    return False
                if tab.ended in ("draining", "unavailable"):
                    return await self._write(send, b"retry: %d\n\n" % settings.retry_ms)
                return True
            elif not await self._write(send, b": \n\n"):
                return False

    async def _write(self, send: Any, data: bytes) -> bool:
        try:
            message = {"type": "http.response.body", "body": data, "more_body": True}
            async with asyncio.timeout(self.settings.write_timeout_s):
                await send(message)
        except TimeoutError:
            log.warning("events.dropped_stalled_writer")
            return False
        except OSError:  # the client went away mid-write
            return False
        return True

    async def _watch(self, receive: Any) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.tab.close("gone")


def encode(event: StreamEvent) -> bytes:
    lines = [f"event: {event.kind}"]
    if event.id:
        lines.append(f"id: {event.id}")
    lines.extend(f"data: {line}" for line in event.data.split("\n"))
    return ("\n".join(lines) + "\n\n").encode()


@get("/bff/events", media_type="text/event-stream")
async def events(
    request: Request[Any, Any, Any],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
    limiter: NamedDependency[RateLimiter],
    proxies: NamedDependency[TrustedProxies],
    feed: NamedDependency[BalanceFeed],
) -> Outgoing:
    """The player's balance as server-sent events (`balance`, then `end` when the session ends);
    401 for a visitor, 429 past the session's streams or the address's connects, 503 past the
    instance's streams or while it drains."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    ctx.skin, ctx.route = skin.id, "events"
    if cross_site(incoming.headers.get("origin"), incoming.headers.get("sec-fetch-site"), incoming.headers.get("host")):
        return error(403, "CROSS_SITE", "Cross-site requests are refused", ctx)
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    if not session.data.logged_in:
        return error(401, "NOT_LOGGED_IN", "Log in to follow the balance", ctx)
    refused = feed.refusal(session.id)
    if refused is not None:
        return error(*refused, ctx, (b"retry-after", b"30"))
    admission = await limiter.admit(skin.id, "events", {"ip": address_key(proxies.client_ip(incoming))})
    if admission.wait is not None:
        return rate_limited(admission.wait, ctx)
    last_id = incoming.headers.get("last-event-id", "")[:LAST_EVENT_ID_LIMIT] or None
    login = session.data.login or session.id
    tab = await feed.open(skin.id, login, session.id, incoming, last_id)
    return EventStream(feed, tab, feed.settings, ctx)


route_handlers = [events]
