"""2. guard: what may pass at all. Only catalogue routes, on normal paths; plain (uncompressed)
bodies within their route's size; unsafe calls from this site echoing the session's XSRF token;
and within the rate limits on guessing (login, register, forgot-password) and on cashier calls.
Nothing here reads the store but the limits, and nothing reaches the platform."""

from __future__ import annotations

import re

import msgspec

from contracts.catalogue import Catalogue
from gateway.config.settings import Settings
from gateway.http.asgi import BodyTooLarge, Outgoing
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.cookies import BrowserCookies, browser_session_id
from gateway.http.errors import error, rate_limited
from gateway.http.security import forgery
from gateway.pipeline.exchange import Exchange
from gateway.state.ratelimit import Limit, RateLimiter, Who
from gateway.state.session import sign_in_wait

# Percent-escapes of '.', '/', '\' and control bytes, '..' and '.' segments, empty
# segments, backslashes and scheme-like segments are refused before any lookup.
_BAD_PATH = re.compile(r"%(2e|2f|5c|0[0-9a-f]|1[0-9a-f]|7f)|\\|//|(^|/)\.\.?(/|$)|:/|[^\x21-\x7e]", re.IGNORECASE)


def refused_path(raw_path: str) -> bool:
    return _BAD_PATH.search(raw_path) is not None


class Guard:
    def __init__(
        self,
        catalogue: Catalogue,
        cookies: BrowserCookies,
        limiter: RateLimiter,
        proxies: TrustedProxies,
        settings: Settings,
    ) -> None:
        self.catalogue = catalogue
        self.cookies = cookies
        self.limiter = limiter
        self.proxies = proxies
        self.max_json = settings.max_json_body
        self.max_upload = settings.max_upload_body

    async def run(self, x: Exchange) -> Outgoing | None:
        incoming, ctx = x.incoming, x.ctx
        if refused_path(incoming.raw_path):
            return error(400, "BAD_PATH", "This path is not allowed", ctx)
        found = self.catalogue.match(incoming.method, incoming.path)
        if found is None:
            return error(404, "NOT_FOUND", "No such route", ctx)
        route, x.params = found
        x.route, ctx.route, ctx.route_class = route, route.name, route.policy
        encoding = incoming.headers.get("content-encoding")
        if encoding is not None and encoding.strip().lower() not in ("", "identity"):
            # The gateway reads bodies (login names, rememberMe) and the platform never said it inflates them.
            return error(415, "UNSUPPORTED_ENCODING", "Compressed request bodies are not accepted", ctx)
        if route.policy == "content":
            return None  # anonymous GETs: no body, no session, no limit but the cache's
        session_id = browser_session_id(incoming.cookie(self.cookies.session))
        refused = forgery(self.cookies.xsrf, incoming.method, incoming.headers, session_id)
        if refused is not None:
            return error(403, *refused, ctx)
        x.address = address_key(self.proxies.client_ip(incoming))
        too_large = await self._read_body(x)
        if too_large is not None:
            return too_large
        if route.limit is not None:
            who = self._who(x, session_id, self.limiter.limits(route.limit))
            x.admission = await self.limiter.admit(x.site()[0].id, route.limit, who, bucket=route.name)
            if x.admission.wait is not None:
                return rate_limited(x.admission.wait, ctx)
        if route.session == "starts" and x.login:
            return await self._refuse_blocked(x, x.login)
        return None

    async def _refuse_blocked(self, x: Exchange, login: str) -> Outgoing | None:
        """A sign-in refused while an operator's revocation of the account's sessions holds (`SIGN_IN_BLOCK_S`)."""
        wait = await sign_in_wait(self.limiter.shared, x.site()[0].id, login)
        if not wait:
            return None
        message = "An operator ended this account's sessions: sign in again later"
        return error(403, "SIGN_IN_BLOCKED", message, x.ctx, (b"retry-after", str(wait).encode()))

    async def _read_body(self, x: Exchange) -> Outgoing | None:
        """Uploads stream; every other body is read whole (and login names noted)."""
        _, route = x.site()
        limit = self.max_upload if route.body == "upload" else self.max_json
        declared = x.incoming.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return error(413, "TOO_LARGE", "Request body too large", x.ctx)
        if route.body == "upload":
            x.upload = x.incoming.chunks(limit)
            return None
        try:
            body = await x.incoming.body(limit)
        except BodyTooLarge:
            return error(413, "TOO_LARGE", "Request body too large", x.ctx)
        x.body = body if route.method != "GET" else None
        if route.login_fields and body:
            _take_login_fields(x, body)
        return None

    def _who(self, x: Exchange, session_id: str | None, limits: tuple[Limit, ...]) -> Who:
        """Whom a limited call counts against. Where the limits count devices (login), an attempt
        from a browser that logged in to this account before (its device cookie) counts against
        that device, not the account."""
        login, device = x.login, None
        if any(limit.by == "device" for limit in limits):
            device = self.cookies.devices.device(x.incoming.cookie(self.cookies.device), login)
        return {
            "ip": x.address,
            "session": session_id,
            "login": login if device is None else None,
            "device": f"{login}:{device}" if device is not None else None,
        }


def _take_login_fields(x: Exchange, body: bytes) -> None:
    """Notes the login name; `rememberMe` is the gateway's to keep (a persistent cookie), so it
    is taken out before the platform sees the body."""
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return
    if not isinstance(data, dict):
        return
    login = data.get("login")
    x.login = login.lower() if isinstance(login, str) else None
    if "rememberMe" in data:
        x.remember = data.pop("rememberMe") is True
        x.body = msgspec.json.encode(data)
