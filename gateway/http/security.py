"""Browser-facing guards: the XSRF double-submit token bound to the session, the
cross-site request check, request ids, and the page's security headers.

Litestar's CSRFConfig signs tokens with the app secret alone, so a token from one
session is valid in every other; here the token is an HMAC of the session id, which
also rotates it whenever the session id rotates (login, logout).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

XSRF_COOKIE = "XSRF-TOKEN"
XSRF_HEADER = "x-xsrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class XsrfTokens:
    def __init__(self, secret: str) -> None:
        self._key = hashlib.sha256(("xsrf:" + secret).encode()).digest()
        self._memo: dict[str, str] = {}
        """Tokens of recent sessions: every call checks one and most set none (bounded)."""

    def for_session(self, session_id: str) -> str:
        token = self._memo.get(session_id)
        if token is None:
            digest = hmac.new(self._key, session_id.encode(), hashlib.sha256).digest()
            token = base64.urlsafe_b64encode(digest[:24]).decode()
            if len(self._memo) >= 65536:
                self._memo.clear()
            self._memo[session_id] = token
        return token

    def valid(self, session_id: str, header: str | None) -> bool:
        return bool(header) and hmac.compare_digest(self.for_session(session_id), str(header))


class DeviceTokens:
    """Device cookies (OWASP's defence against online guessing): a browser that logged in to an
    account with its password gets `<nonce>.<HMAC(login, nonce)>`; its later attempts on that
    account draw on their own allowance instead of the account's, which a guesser can spend."""

    def __init__(self, secret: str) -> None:
        self._key = hashlib.sha256(("device:" + secret).encode()).digest()

    def _sign(self, login: str, nonce: str) -> str:
        digest = hmac.new(self._key, f"{login.lower()}\0{nonce}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    def issue(self, login: str) -> str:
        nonce = secrets.token_urlsafe(12)
        return f"{nonce}.{self._sign(login, nonce)}"

    def device(self, cookie: str | None, login: str | None) -> str | None:
        """The device's id when `cookie` was issued to this browser for `login`, else None."""
        if not cookie or not login:
            return None
        nonce, _, signature = cookie.partition(".")
        if not nonce or not hmac.compare_digest(self._sign(login, nonce), signature):
            return None
        return nonce


def forgery(xsrf: XsrfTokens, method: str, headers: dict[str, str], session_id: str | None) -> tuple[str, str] | None:
    """Unsafe calls must come from this site and echo the XSRF token of the browser's session
    (`session_id`, None without a valid session cookie): the code and message of a 403 when not."""
    if method in SAFE_METHODS:
        return None
    if cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host")):
        return "CROSS_SITE", "Cross-site requests are refused"
    if session_id is None or not xsrf.valid(session_id, headers.get("x-xsrf-token")):
        return "XSRF", "Missing or invalid X-XSRF-TOKEN"
    return None


def cross_site(origin: str | None, sec_fetch_site: str | None, host: str | None) -> bool:
    """A browser told us the request comes from another site."""
    if sec_fetch_site is not None and sec_fetch_site not in {"same-origin", "none"}:
        return True
    if origin is None or origin == "null" or host is None:
        return origin == "null"
    return origin.split("://", 1)[-1].lower() != host.lower()


def page_headers(frame_hosts: list[str], production: bool, payment_hosts: list[str] | None = None) -> dict[str, str]:
    """Security headers of the SPA's documents and assets. Forms may post only to the site and
    to the skin's payment providers (a deposit's provider form opens in a new window)."""
    frames = " ".join(["'self'", *frame_hosts])
    forms = " ".join(["'self'", *(payment_hosts or [])])
    csp = "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "connect-src 'self'",
            f"frame-src {frames}",
            "frame-ancestors 'self'",
            "base-uri 'self'",
            f"form-action {forms}",
            "object-src 'none'",
        ]
    )
    headers = {
        "content-security-policy": csp,
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-frame-options": "SAMEORIGIN",
        "permissions-policy": "camera=(), microphone=(), geolocation=()",
    }
    if production:
        headers["strict-transport-security"] = "max-age=63072000; includeSubDomains"
    return headers
