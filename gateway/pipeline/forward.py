"""5. forward: the call as the platform gets it, on the skin's upstream for the route's prefix.

Request headers pass through an allowlist (a client's `siteid`, `wsession`, cookies and hop-by-
hop headers never reach the platform); `siteid` comes from the skin and `wsession` from the
session (and into the path for launches such as `/rest/ezugi/session`, which the SPA calls
without it); the session's upstream cookies for that origin go along, with the platform's XSRF
token echoed. One attempt per `send` or `stream`: how many there are is the policy's to say.
"""

from __future__ import annotations

from collections.abc import AsyncIterable
from dataclasses import dataclass

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import Route
from gateway.config.skins import Skin
from gateway.http.clients import TrustedProxies
from gateway.http.security import XSRF_COOKIE, request_id
from gateway.operations.tracing import Tracing
from gateway.pipeline.encoding import passes_through
from gateway.pipeline.exchange import Exchange
from gateway.shared.session import Session
from gateway.upstream.pools import UpstreamClients
from gateway.upstream.transport import Answer, Pool, Timeouts

FORWARDED_REQUEST_HEADERS = ("content-type", "accept", "accept-language", "user-agent", "if-none-match",
                             "if-modified-since")  # fmt: skip
UPSTREAM_XSRF_HEADER = "X-XSRF-TOKEN"
SESSION_EXPIRED_NEEDLE = SESSION_EXPIRED.encode()
GATEWAY_AGENT = "casino-bff"
CONTENT_HEADERS = {"accept": "*/*", "user-agent": GATEWAY_AGENT, "accept-encoding": "gzip"}
"""What a content call sends besides `siteid`, the gateway's request id and the copy's own
validators: nothing of the browser's. A content copy is shared by everyone whose request has its
key (skin, path, sorted query), so the platform must see nothing else that a browser can vary: a
platform that built device banners from `User-Agent`, picked an image format by `Accept` or
targeted a country by `X-Forwarded-For` without saying `Vary` would have its first caller's answer
served to everyone. The browser's conditionals are answered by the gateway from the copy it serves,
never forwarded (a joined flight would hand its 304 to a visitor who asked for the whole answer).
The README's *Bytes on the wire* holds the header-by-header table."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where one call goes."""

    transport: Pool
    origin: str
    """`scheme://host[:port]`: the connections' key, and the session's cookie jar's."""
    path: str
    """The request target on that origin: path (under the base URL's own path) and query."""
    upstream: str
    """The upstream's name in the skin (`api`, `capi`, `sbapi`, `rest`, `sports_feed`)."""


class Forward:
    def __init__(self, clients: UpstreamClients, proxies: TrustedProxies, tracing: Tracing) -> None:
        self.clients = clients
        self.proxies = proxies
        self.tracing = tracing
        self._bases: dict[str, tuple[str, str]] = {}

    def prepare(self, x: Exchange) -> Target:
        """The call's target and headers (`x.headers`), fixed when its flight starts (a cached
        copy's answer never pays for them)."""
        skin, route = x.site()
        x.headers = self.headers(x, skin, route, x.session)
        return self.target(skin, route, x.params, x.session, x.incoming.query)

    def headers(self, x: Exchange, skin: Skin, route: Route, session: Session) -> dict[str, str]:
        if route.policy == "content":
            # the gateway's own id for the flight: a browser's (kept for its own log line) echoed
            # into a body would be stored for everyone
            return {**CONTENT_HEADERS, "siteid": skin.site_id, "x-request-id": request_id(None), **x.conditions}
        given = x.incoming.headers
        headers = {name: value for name in FORWARDED_REQUEST_HEADERS if (value := given.get(name)) is not None}
        headers["siteid"] = skin.site_id
        if session.data.wsession:
            headers["wsession"] = session.data.wsession
        headers["x-request-id"] = x.ctx.request_id
        headers["x-forwarded-for"], headers["x-forwarded-proto"] = self.proxies.forwarded(x.incoming)
        # The platform's gzip saves its link; the transport inflates what the gateway reads, within its cap.
        headers["accept-encoding"] = "gzip"
        headers.update(x.conditions)
        return headers

    def target(self, skin: Skin, route: Route, params: dict[str, str], session: Session, query: str) -> Target:
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
        path = (base_path + path or "/") + (f"?{query}" if query else "")
        return Target(self.clients.upstream(origin), origin, path, upstream)

    async def send(self, x: Exchange, target: Target, timeouts: Timeouts) -> Answer:
        """One attempt, its answer read whole."""
        _, route = x.site()
        sent, body = self._with_jar(x, target), x.body
        # an answer nothing here reads but observe's SESSION_EXPIRED check keeps the platform's gzip
        keep = SESSION_EXPIRED_NEEDLE if passes_through(route) and x.admission is None else b""
        if not self.tracing.enabled:
            return await target.transport.request(route.method, target.path, sent, body, timeouts, keep)
        with self.tracing.upstream(route.name, route.method, target.upstream, sent, x.ctx.request_id) as span:
            answer = await target.transport.request(route.method, target.path, sent, body, timeouts, keep)
            self.tracing.status(span, answer.status)
            return answer

    async def stream(
        self, x: Exchange, target: Target, timeouts: Timeouts, body: bytes | AsyncIterable[bytes] | None
    ) -> Answer:
        """One attempt whose answer (media, an upload's reply) is read as it arrives."""
        _, route = x.site()
        sent = self._with_jar(x, target)
        length: int | None = None
        if x.upload is not None and (declared := x.incoming.headers.get("content-length", "")).isdigit():
            length = int(declared)
        if route.binary and (encoding := x.incoming.headers.get("accept-encoding")):
            sent["accept-encoding"] = encoding  # passed through untouched, so any encoding will do
        with self.tracing.upstream(route.name, route.method, target.upstream, sent, x.ctx.request_id):
            return await target.transport.stream(route.method, target.path, sent, body, timeouts, length)

    @staticmethod
    def _with_jar(x: Exchange, target: Target) -> dict[str, str]:
        headers = dict(x.headers)
        jar = x.session.data.jars.get(target.origin)
        if jar:
            headers["cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
            if token := jar.get(XSRF_COOKIE):
                headers[UPSTREAM_XSRF_HEADER] = token
        return headers


def split_base(base: str) -> tuple[str, str]:
    """`https://host:port/prefix` -> (`https://host:port`, `/prefix`)."""
    scheme, _, rest = base.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host}", (slash + path).rstrip("/")
