"""One call to the platform as a value (`UpstreamCall`): the skin and route, where it goes
(`Target`), the headers and body the platform gets, the session whose cookies and `wsession` go
along, and the request it is made for. Built once per call (`Calls.build`), never changed after:
the cache's own validators go on a copy (`asking`). `gateway.upstream.caller` runs it.

Request headers pass through an allowlist (a client's `siteid`, `wsession`, cookies and hop-by-
hop headers never reach the platform); `siteid` comes from the skin and `wsession` from the
session (and into the path for launches such as `/rest/ezugi/session`, which the SPA calls
without it). The session's cookies for the origin are added per attempt, by the caller: an
attempt may change them.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Mapping
from dataclasses import dataclass, replace

from contracts.catalogue import Route
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, RequestContext, request_id
from gateway.http.clients import TrustedProxies
from gateway.state.session import Session
from gateway.upstream.pools import UpstreamClients
from gateway.upstream.transport import Pool

FORWARDED_REQUEST_HEADERS = (
    "content-type",
    "accept",
    "accept-language",
    "user-agent",
    "if-none-match",
    "if-modified-since",
)
GATEWAY_AGENT = "casino-bff"
CONTENT_HEADERS = {"accept": "*/*", "user-agent": GATEWAY_AGENT, "accept-encoding": "gzip"}
"""What a content call sends besides `siteid`, the gateway's request id and the copy's own
validators: nothing of the browser's. A content copy is shared by everyone whose request has its
key (skin, path, sorted query), so the platform must see nothing else that a browser can vary: a
platform that built device banners from `User-Agent`, picked an image format by `Accept` or
targeted a country by `X-Forwarded-For` without saying `Vary` would have its first caller's answer
served to everyone. The browser's conditionals are answered by the gateway from the copy it serves,
never forwarded (a joined flight would hand its 304 to a visitor who asked for the whole answer).
docs/wire.md holds the header-by-header table."""


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


@dataclass(frozen=True, slots=True)
class UpstreamCall:
    skin: Skin
    route: Route
    target: Target
    headers: Mapping[str, str]
    """What goes to the platform besides the session's cookies."""
    body: bytes | None
    session: Session
    """Its jar takes the platform's cookies as they come (the caller's to keep)."""
    ctx: RequestContext
    """The request the call is made for: its id, and its upstream time and status, noted."""
    upload: AsyncIterable[bytes] | None = None
    """A multipart body, streamed to the platform as it arrives ..."""
    length: int | None = None
    """... with the length the browser declared, when it did."""
    encoding: str | None = None
    """A binary answer's `Accept-Encoding`, the browser's (passed through untouched, so any will do)."""
    keep_gzip: bool = False
    """The platform's gzip is kept as it came and only checked (`passes_through`)."""

    def asking(self, conditions: Mapping[str, str]) -> UpstreamCall:
        """The same call, asking whether the copy with these validators is still current."""
        return replace(self, headers={**self.headers, **conditions}) if conditions else self


class Calls:
    """Builds calls: the route's target on the skin's upstream, and the headers it gets."""

    def __init__(self, clients: UpstreamClients, proxies: TrustedProxies) -> None:
        self.clients = clients
        self.proxies = proxies
        self._bases: dict[str, tuple[str, str]] = {}

    def build(
        self,
        incoming: Incoming,
        ctx: RequestContext,
        skin: Skin,
        route: Route,
        session: Session,
        params: Mapping[str, str] | None = None,
        body: bytes | None = None,
        upload: AsyncIterable[bytes] | None = None,
    ) -> UpstreamCall:
        target = self.target(skin, route, params or {}, session, incoming.query)
        length, encoding = None, None
        if upload is not None and (declared := incoming.headers.get("content-length", "")).isdigit():
            length = int(declared)
        if route.binary:
            encoding = incoming.headers.get("accept-encoding")
        headers = self.headers(incoming, ctx, skin, route, session)
        keep = passes_through(route)
        return UpstreamCall(skin, route, target, headers, body, session, ctx, upload, length, encoding, keep)

    def headers(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: Route, session: Session
    ) -> dict[str, str]:
        if route.policy == "content":
            # the gateway's own id for the call: a browser's (kept for its own log line) echoed
            # into a body would be stored for everyone
            return {**CONTENT_HEADERS, "siteid": skin.site_id, "x-request-id": request_id(None)}
        given = incoming.headers
        headers = {name: value for name in FORWARDED_REQUEST_HEADERS if (value := given.get(name)) is not None}
        headers["siteid"] = skin.site_id
        if session.data.wsession:
            headers["wsession"] = session.data.wsession
        headers["x-request-id"] = ctx.request_id
        headers["x-forwarded-for"], headers["x-forwarded-proto"] = self.proxies.forwarded(incoming)
        # The platform's gzip saves its link; the transport inflates what the gateway reads, within its cap.
        headers["accept-encoding"] = "gzip"
        return headers

    def target(self, skin: Skin, route: Route, params: Mapping[str, str], session: Session, query: str) -> Target:
        upstream: str = route.upstream
        base = skin.upstreams.base(route.upstream)
        if route.sports_feed and skin.sports_feed:
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


def passes_through(route: Route) -> bool:
    """Whether the platform's gzip may go to the browser as it came: a `read` the gateway itself
    does not read (`Route.gateway_reads`; observe's `SESSION_EXPIRED` check reads the inflated
    body beside it), no secret answer, not streamed."""
    kept_apart = route.binary or route.multipart or route.secret_answer or route.gateway_reads
    return route.policy == "read" and not kept_apart


def split_base(base: str) -> tuple[str, str]:
    """`https://host:port/prefix` -> (`https://host:port`, `/prefix`)."""
    scheme, _, rest = base.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host}", (slash + path).rstrip("/")
