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
from gateway.http.asgi import Incoming, RequestContext
from gateway.http.clients import TrustedProxies
from gateway.shared.session import Session
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
# Content is anonymous and cached per skin + path + query: nothing else may vary its answer. The
# browser's conditionals are answered by the gateway from the copy it serves, never forwarded (a
# joined flight would hand its 304 to a visitor who asked for the whole answer).
CONTENT_REQUEST_HEADERS = ("accept", "user-agent")


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
        return UpstreamCall(skin, route, target, headers, body, session, ctx, upload, length, encoding)

    def headers(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: Route, session: Session
    ) -> dict[str, str]:
        content = route.policy == "content"
        given = incoming.headers
        allowed = CONTENT_REQUEST_HEADERS if content else FORWARDED_REQUEST_HEADERS
        headers = {name: value for name in allowed if (value := given.get(name)) is not None}
        headers["siteid"] = skin.site_id
        if session.data.wsession and not content:
            headers["wsession"] = session.data.wsession
        headers["x-request-id"] = ctx.request_id
        headers["x-forwarded-for"], headers["x-forwarded-proto"] = self.proxies.forwarded(incoming)
        # Bodies the gateway reads (login, SESSION_EXPIRED) must arrive uncompressed.
        headers["accept-encoding"] = "identity"
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


def split_base(base: str) -> tuple[str, str]:
    """`https://host:port/prefix` -> (`https://host:port`, `/prefix`)."""
    scheme, _, rest = base.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}://{host}", (slash + path).rstrip("/")
