"""The cookies the browser holds: the opaque session id (HttpOnly), the XSRF token the SPA echoes,
and a device cookie once a player logged in with a password. Set on every answer that changes
one, whichever route gave it."""

from __future__ import annotations

import re
from typing import Protocol

from litestar.datastructures import Cookie

from gateway.http.asgi import Incoming, Outgoing
from gateway.http.security import XSRF_COOKIE, DeviceTokens, XsrfTokens

DEVICE_SECONDS = 365 * 24 * 3600
BROWSER_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
"""What a session cookie may hold (`gateway.state.session.new_id` makes them)."""


def browser_session_id(cookie: str | None) -> str | None:
    """The session id a browser's cookie holds, when it is one (any other value is no session)."""
    return cookie if cookie and BROWSER_SESSION_ID.match(cookie) else None


class CookieSession(Protocol):
    """What the cookies read of a session (`gateway.state.session.Session`)."""

    @property
    def id(self) -> str: ...
    @property
    def is_new(self) -> bool: ...
    @property
    def cookie_age(self) -> int | None: ...
    @property
    def trusted_login(self) -> str | None: ...


class BrowserCookies:
    def __init__(self, xsrf: XsrfTokens, devices: DeviceTokens, production: bool) -> None:
        self.xsrf = xsrf
        self.devices = devices
        self.secure = production
        # __Host- cookies must be Secure, host-only and Path=/ (no sharing across subdomains).
        self.session = "__Host-bff" if production else "bff"
        self.device = "__Host-bff-device" if production else "bff-device"

    def add(self, response: Outgoing, session: CookieSession, incoming: Incoming) -> None:
        """The session cookie when the browser does not have this id yet, the XSRF token when the
        browser's copy is not the session's, and a device cookie when the player just logged in
        with a password from a browser without one for that account."""
        headers = response.headers
        if session.is_new:
            headers.append(self._cookie(self.session, session.id, max_age=session.cookie_age))
        token = self.xsrf.for_session(session.id)
        if incoming.cookie(XSRF_COOKIE) != token:
            headers.append(self._cookie(XSRF_COOKIE, token, httponly=False))
        trusted = session.trusted_login
        if trusted is not None and self.devices.device(incoming.cookie(self.device), trusted) is None:
            headers.append(self._cookie(self.device, self.devices.issue(trusted), max_age=DEVICE_SECONDS))

    def _cookie(
        self, name: str, value: str, *, httponly: bool = True, max_age: int | None = None
    ) -> tuple[bytes, bytes]:
        cookie = Cookie(
            key=name, value=value, path="/", httponly=httponly, samesite="lax", secure=self.secure, max_age=max_age
        )
        return cookie.to_encoded_header()
