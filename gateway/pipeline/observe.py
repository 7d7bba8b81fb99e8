"""6. observe: what an answer does to the session, and what the player is sent.

Once per call (`call`): the platform's cookies go to the session's jar for that origin, never
to the browser; the upstream session id is captured at login and register (and stripped from the
browser's copy, the gateway's id rotated); the session ends at logout and on `SESSION_EXPIRED`;
a session that changed is saved. Once per request (`answer`, `finish`): the platform's answer,
or the common error JSON for its failures; the request id; the browser's cookies; the places in
rate limits given back when the call succeeded or never left. The access line and metrics are
the front door's (`gateway.edge.entry`).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import msgspec

from contracts.base import SESSION_EXPIRED
from gateway.http.asgi import Outgoing
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import no_answer
from gateway.operations.tracing import Tracing
from gateway.pipeline.exchange import Exchange
from gateway.shared.ratelimit import RateLimiter
from gateway.shared.session import Session, Sessions
from gateway.upstream.outcome import Outcome
from gateway.upstream.transport import Answer

RETURNED_RESPONSE_HEADERS = frozenset(
    {"content-type", "cache-control", "etag", "last-modified", "expires", "content-disposition", "content-language",
     "retry-after", "vary", "age"}
)  # fmt: skip
STREAMED_RESPONSE_HEADERS = RETURNED_RESPONSE_HEADERS | {"content-encoding", "content-length"}
SESSION_CAPTURE_ROUTES = frozenset({"login", "register"})
MAX_COOKIES, MAX_COOKIE_BYTES = 32, 4096
"""A platform's cookies kept per origin, and the largest value kept (a browser's own limits)."""
_EXPIRED = SESSION_EXPIRED.encode()


@dataclass
class Observe:
    sessions: Sessions
    cookies: BrowserCookies
    limiter: RateLimiter
    tracing: Tracing

    async def call(self, x: Exchange, outcome: Outcome) -> Outcome:
        """What the platform's answer does to the session (the flight's leader does this once)."""
        skin, route = x.site()
        if route.policy == "content" or outcome.failure is not None:
            return outcome
        session = x.session
        if route.name == "logout":
            session.log_out()
        elif route.name in SESSION_CAPTURE_ROUTES and b"sessionId" in outcome.body:
            outcome.body = _capture(outcome.body, session, x.login, x.remember)
        elif _EXPIRED in outcome.body and _code(outcome.body) == SESSION_EXPIRED:
            session.log_out()
        await self.sessions.save(skin.id, session, x.address)
        outcome.session = session
        return outcome

    async def streamed_call(self, x: Exchange, origin: str, answer: Answer) -> None:
        """A streamed answer's cookies go to the session's jar too (it is saved if they changed)."""
        skin, route = x.site()
        if route.policy != "content" and keep_cookies(x.session, origin, answer):
            await self.sessions.save(skin.id, x.session, x.address)

    async def finish(self, x: Exchange, answer: Outgoing, outcome: Outcome | None = None) -> Outgoing:
        """The request id and the browser's cookies on any answer; places in rate limits given
        back unless a call the platform saw failed (`outcome`: the call made or joined, if any)."""
        if answer.header("x-request-id") is None:
            answer.headers.append((b"x-request-id", x.ctx.request_id.encode("latin-1")))
        if x.session.id:  # a real session (not content's anonymous stand-in)
            self.cookies.add(answer, x.session, x.incoming)
        if x.admission is not None and x.admission.held:
            succeeded = outcome is None or outcome.unsent or outcome.accepted
            await self.limiter.settle(x.admission, give_back=succeeded)
        if self.tracing.enabled:
            self.tracing.tag(x.ctx.request_id, x.ctx.skin, x.ctx.route)
        return answer


def answer(x: Exchange, outcome: Outcome) -> Outgoing:
    """The platform's answer as the player gets it; its failures in the common error JSON."""
    if outcome.session is not None:
        x.session = outcome.session  # the session as the call left it (a follower's too)
    if outcome.failure is not None or (outcome.status >= 500 and outcome.status != 501):
        return no_answer(outcome, x.exclusive, x.ctx)
    headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in outcome.headers.items()]
    if "content-type" not in outcome.headers:
        headers.append((b"content-type", b"application/json"))
    return Outgoing(outcome.status, headers, outcome.body)


def streamed(answer: Answer) -> Outgoing:
    """A binary answer or an upload's reply, passed through as it arrives."""
    headers = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in answer.headers if n in STREAMED_RESPONSE_HEADERS]
    return Outgoing(answer.status, headers, chunks=answer.stream, close=answer.aclose)


def returned(answer: Answer) -> Outcome:
    """The platform's answer, with the headers a browser may see. A gzip body kept as it came
    (`Answer.encoded`) stays so, saying `content-encoding: gzip`, unless it mentions
    `SESSION_EXPIRED`: then it is inflated whole (it was checked and is within the cap), since
    observe reads it."""
    headers: dict[str, str] = {}
    for name, value in answer.headers:
        if name in RETURNED_RESPONSE_HEADERS and name not in headers:
            headers[name] = value
    if answer.encoded:
        if not answer.mentions:
            headers["content-encoding"] = "gzip"
            return Outcome(answer.status, headers, answer.body)
        return Outcome(answer.status, headers, zlib.decompress(answer.body, 31))
    return Outcome(answer.status, headers, answer.body)


def keep_cookies(session: Session, origin: str, answer: Answer) -> bool:
    """The platform's cookies go to the session's jar for that origin (whether it changed)."""
    set_cookies = answer.header_values("set-cookie")
    if not set_cookies:
        return False
    before = session.data.jars.get(origin, {})
    jar = dict(before)
    for header in set_cookies:
        for name, morsel in _parse_cookie(header).items():
            if morsel["max-age"] == "0" or morsel.value in {"", "null"}:
                jar.pop(name, None)
            elif len(morsel.value) <= MAX_COOKIE_BYTES and (name in jar or len(jar) < MAX_COOKIES):
                jar[name] = morsel.value
    if jar == before:
        return False
    session.data.jars = {**session.data.jars, origin: jar}
    return True


def _capture(body: bytes, session: Session, login: str | None, remember: bool) -> bytes:
    """Takes the upstream session id out of a login or register answer, into the session."""
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return body
    if not isinstance(data, dict):
        return body
    found = data.get("loginResponse")
    nested: dict[str, Any] = found if isinstance(found, dict) else {}
    wsession = data.pop("sessionId", None) or nested.get("sessionId")
    nested.pop("sessionId", None)
    if data.get("success") is True and isinstance(wsession, str) and wsession:
        named = nested.get("login") or data.get("login")
        session.log_in(wsession, named if isinstance(named, str) else login, remember)
    return msgspec.json.encode(data)


def _code(body: bytes) -> str | None:
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None
    return data.get("code") if isinstance(data, dict) else None


def _parse_cookie(header: str) -> SimpleCookie:
    parsed: SimpleCookie = SimpleCookie()
    try:
        parsed.load(header)
    except Exception:  # an unparsable cookie is the platform's problem, not the player's
        return SimpleCookie()
    return parsed
