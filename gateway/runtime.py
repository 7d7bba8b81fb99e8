"""The gateway's parts for one app instance, and the per-request context the access log reads."""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any

from litestar import Request, Response
from litestar.datastructures import Cookie

from contracts.catalogue import Catalogue, Policy, Route
from gateway.cache import CacheConfig, ContentCache
from gateway.dedup import Dedup, SharedFlights
from gateway.exchange import header_map
from gateway.idempotency import IdempotencyRecords
from gateway.live import LiveConfig
from gateway.metrics import Metrics
from gateway.ratelimit import RateLimitConfig, RateLimiter
from gateway.resilience import DEFAULT_POLICIES, Breakers, CallPolicy
from gateway.security import XSRF_COOKIE, DeviceTokens, XsrfTokens, request_id
from gateway.session import REMEMBER_SECONDS, Session, Sessions
from gateway.settings import Settings
from gateway.shared import MemoryShared, Shared
from gateway.skins import Skin, Skins
from gateway.tracing import Tracing
from gateway.upstream import Upstream, UpstreamClients

CONTEXT_KEY = "bff"
HEADERS_KEY = "bff.headers"


def headers_of(request: Request[Any, Any, Any]) -> dict[str, str]:
    """The request's headers as a plain dict (first value of a repeated name), built once:
    Litestar's `request.headers` builds a multidict view on every access."""
    state: dict[str, Any] = request.scope.setdefault("state", {})
    found: dict[str, str] | None = state.get(HEADERS_KEY)
    if found is None:
        found = state[HEADERS_KEY] = header_map(request.scope["headers"])
    return found


@dataclass
class RequestContext:
    """What the access line says about one request."""

    request_id: str
    started: float = field(default_factory=time.perf_counter)
    skin: str | None = None
    route: str | None = None
    route_class: str = "other"
    """`content`, `read`, `exclusive` (proxied), `bff`, `spa` or `other`."""
    cache: str | None = None
    dedup: str | None = None
    upstream_ms: float = 0.0
    upstream_status: int | None = None

    @classmethod
    def of(cls, request: Request[Any, Any, Any]) -> RequestContext:
        state: dict[str, Any] = request.scope.setdefault("state", {})
        ctx: RequestContext | None = state.get(CONTEXT_KEY)
        if ctx is None:
            ctx = state[CONTEXT_KEY] = cls(request_id(headers_of(request).get("x-request-id")))
        return ctx


@dataclass(frozen=True, slots=True)
class Target:
    """Where one upstream call goes."""

    transport: Upstream
    origin: str
    """`scheme://host[:port]`: the connections' key, and the session's cookie jar's."""
    target: str
    """The request target on that origin: path (under the base URL's own path) and query."""
    upstream: str
    """The upstream's name in the skin (`api`, `capi`, `sbapi`, `rest`, `sports_feed`)."""


@dataclass
class Gateway:
    settings: Settings
    config: LiveConfig
    clients: UpstreamClients
    sessions: Sessions
    xsrf: XsrfTokens
    shared: Shared = field(default_factory=MemoryShared)
    flights: SharedFlights[Any] | None = None
    """Cross-instance joins; None with one instance (memory store)."""
    cache_config: CacheConfig = field(default_factory=CacheConfig)
    rate_limits: RateLimitConfig = field(default_factory=RateLimitConfig)
    catalogue: Catalogue = field(default_factory=Catalogue)
    dedup: Dedup[Any] = field(default_factory=Dedup)
    policies: dict[Policy, CallPolicy] = field(default_factory=lambda: dict(DEFAULT_POLICIES))
    metrics: Metrics = field(default_factory=Metrics)
    breakers: Breakers = field(default_factory=Breakers)
    tracing: Tracing = field(default_factory=Tracing)
    instance: str = "local"
    """This process's name in the shared store (leases and records name their holder by it)."""
    draining: bool = False
    """SIGTERM received: not ready any more, connections closed after their answer."""
    _claims: set[Hashable] = field(default_factory=set)
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._trusted = tuple(ipaddress.ip_network(p, strict=False) for p in self.settings.trusted_proxies)
        self._trust_memo: dict[str, bool] = {}
        self._bases: dict[str, tuple[str, str]] = {}
        self.cache = ContentCache(self.shared, self.cache_config)
        self.limiter = RateLimiter(self.shared, self.rate_limits)
        self.records = IdempotencyRecords(self.shared, self.instance)
        self.devices = DeviceTokens(self.settings.secret_key)

    def trusts(self, peer: str) -> bool:
        """Whether `peer` is one of our balancers, whose X-Forwarded-* headers we believe."""
        known = self._trust_memo.get(peer)
        if known is None:
            try:
                address = ipaddress.ip_address(peer)
                known = any(address in network for network in self._trusted)
            except ValueError:
                known = False
            if len(self._trust_memo) >= 4096:  # addresses seen: bounded, like any cache here
                self._trust_memo.clear()
            self._trust_memo[peer] = known
        return known

    def background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Work that outlives the request (a cache refresh), kept referenced until done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain_background(self, within_s: float = 0.0) -> None:
        """Lets background work (cache refreshes) finish for up to `within_s`, then cancels it."""
        if self._tasks and within_s > 0:
            await asyncio.wait(list(self._tasks), timeout=within_s)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    @property
    def skins(self) -> Skins:
        return self.config.skins

    @property
    def session_cookie(self) -> str:
        # __Host- cookies must be Secure, host-only and Path=/ (no sharing across subdomains).
        return "__Host-bff" if self.settings.production else "bff"

    @property
    def device_cookie(self) -> str:
        return "__Host-bff-device" if self.settings.production else "bff-device"

    def skin_for(self, request: Request[Any, Any, Any]) -> Skin | None:
        return self.skins.for_host(headers_of(request).get("host"))

    def upstream_target(self, skin: Skin, route: Route, params: dict[str, str], session: Session, query: str) -> Target:
        upstream: str = route.upstream
        base = skin.upstreams.base(route.upstream)
        if route.name == "sportsEvents" and skin.sports_feed:
            upstream, base, path = "sports_feed", skin.sports_feed.rstrip("/"), ""
        else:
            path = route.upstream_path(params, session.data.wsession)
        found = self._bases.get(base)  # the same few base URLs come back on every call
        if found is None:
            if len(self._bases) >= 1024:  # only configurations add bases; bounded all the same
                self._bases.clear()
            found = self._bases[base] = split_base(base)
        origin, base_path = found
        target = (base_path + path or "/") + (f"?{query}" if query else "")
        return Target(self.clients.upstream(origin), origin, target, upstream)

    def claim(self, slot: Hashable) -> bool:
        """One streamed exclusive call (an upload) per session and route at a time."""
        if slot in self._claims:
            return False
        self._claims.add(slot)
        return True

    def release(self, slot: Hashable) -> None:
        self._claims.discard(slot)

    def finish(
        self, request: Request[Any, Any, Any], response: Response[Any], session: Session | None, ctx: RequestContext
    ) -> None:
        """The browser's cookies (session id, XSRF token) and the request id."""
        response.headers["x-request-id"] = ctx.request_id
        if session is not None:
            cookies = request.cookies
            response.cookies.extend(
                self.browser_cookies(session, cookies.get(XSRF_COOKIE), cookies.get(self.device_cookie))
            )

    def browser_cookies(self, session: Session, xsrf_cookie: str | None, device_cookie: str | None) -> list[Cookie]:
        """The session cookie when the browser does not have this id yet, the XSRF token when the
        browser's copy (`xsrf_cookie`) is not the session's, and a device cookie when the player
        just logged in with a password from a browser without one for that account."""
        cookies = []
        secure = self.settings.production
        if session.is_new:
            cookies.append(
                Cookie(
                    key=self.session_cookie,
                    value=session.id,
                    path="/",
                    httponly=True,
                    samesite="lax",
                    secure=secure,
                    max_age=REMEMBER_SECONDS if session.data.remember else None,
                )
            )
        token = self.xsrf.for_session(session.id)
        if xsrf_cookie != token:
            cookies.append(
                Cookie(key=XSRF_COOKIE, value=token, path="/", httponly=False, samesite="lax", secure=secure)
            )
        trusted = session.trusted_login
        if trusted is not None and self.devices.device(device_cookie, trusted) is None:
            cookies.append(
                Cookie(key=self.device_cookie, value=self.devices.issue(trusted), path="/", httponly=True,
                       samesite="lax", secure=secure, max_age=DEVICE_SECONDS)
            )  # fmt: skip
        return cookies


DEVICE_SECONDS = 365 * 24 * 3600


def split_base(base: str) -> tuple[str, str]:
    """`https://host:port/prefix` -> (`https://host:port`, `/prefix`)."""
    scheme, _, rest = base.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host}", (slash + path).rstrip("/")
