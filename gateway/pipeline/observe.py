"""6. observe: what an answer does to the session, and what the player is sent.

Once per call (`after_call`, by the flight's leader; `after_stream`): the upstream session id is
captured where the route starts a session (and stripped from the browser's copy, the gateway's
id rotated); the session ends where the route ends it and on `SESSION_EXPIRED`; a session that
changed (its jar took the platform's cookies, `gateway.upstream.caller`) is saved. Once per
request (`finish`): the response, the platform's answer or the common error JSON for its failures;
the request id; the browser's cookies; the places in rate limits given back when the call
succeeded or never left; a refusal of the platform's own (`success: false` below a 5xx) named by its
code in the request's context (`refusal`). The access line and metrics are the front door's
(`gateway.edge.entry`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from contracts.base import PLATFORM_CODES, SESSION_EXPIRED
from contracts.catalogue import BALANCE
from gateway.balance.sink import BalanceSink
from gateway.http.asgi import Outgoing
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import no_answer
from gateway.pipeline.exchange import Exchange
from gateway.runtime.tracing import Tracing
from gateway.state.outcome import Outcome
from gateway.state.ratelimit import RateLimiter
from gateway.state.reality import wallet_cash
from gateway.state.session import Session, Sessions
from gateway.upstream.caller import RETURNED_RESPONSE_HEADERS
from gateway.upstream.transport import Answer

STREAMED_RESPONSE_HEADERS = RETURNED_RESPONSE_HEADERS | {"content-encoding", "content-length"}
_EXPIRED_CODE = SESSION_EXPIRED.encode()
"""The refusal code's bytes, looked for before an answer's envelope is decoded."""
_EXPIRED_ANSWER = msgspec.json.encode({"success": False, "code": SESSION_EXPIRED, "description": "Session expired"})
_SUCCESS = b'"success"'
_BLANK = b" \t\r\n"


class _Envelope(msgspec.Struct):
    success: object = None
    code: object = None


_envelope = msgspec.json.Decoder(_Envelope)


@dataclass
class Observe:
    sessions: Sessions
    cookies: BrowserCookies
    limiter: RateLimiter
    tracing: Tracing
    feed: BalanceSink | None = None
    """The balance stream's feed: told of logins, logouts, money calls and balance reads."""

    async def after_call(self, x: Exchange, outcome: Outcome) -> Outcome:
        """What the platform's answer does to the session (the flight's leader does this once)."""
        skin, route = x.site()
        if route.policy == "content" or outcome.failure is not None:
            return outcome
        session = x.session
        login, before = session.data.login, session.id
        if route.session == "ends":
            session.log_out()
        elif route.session == "starts" and b"sessionId" in outcome.body:
            outcome.body = _capture(outcome.body, session, x.login, x.remember)
        elif _EXPIRED_CODE in outcome.body and _code(outcome.body) == SESSION_EXPIRED:
            session.log_out()
        elif route is BALANCE and session.data.opening is None and session.data.logged_in and outcome.status == 200:
            session.data.opening = wallet_cash(outcome.body, skin.currency)  # the first balance since sign-in
        await self.sessions.save(skin.id, session, x.address)
        if self.feed is not None:
            self.feed.on_outcome(skin.id, route, login, before, session, outcome)
        outcome.session = session
        return outcome

    async def after_stream(self, x: Exchange, jar_changed: bool) -> None:
        """A streamed answer's cookies went to the session's jar too: saved if they changed it."""
        if jar_changed:
            await self.sessions.save(x.site()[0].id, x.session, x.address)

    async def finish(self, x: Exchange, planned: Outgoing | Outcome) -> Outgoing:
        """The response, with the request id and the browser's cookies; places in rate limits given
        back unless a call the platform saw failed (`planned`: an outcome, the call made or joined)."""
        outcome = planned if isinstance(planned, Outcome) else None
        sent = respond(x, planned) if isinstance(planned, Outcome) else planned
        if outcome is not None:
            x.ctx.refusal = _refusal_label(x, outcome)
        if sent.header("x-request-id") is None:
            sent.headers.append((b"x-request-id", x.ctx.request_id.encode("latin-1")))
        if x.session.id:  # a real session (not content's anonymous stand-in)
            self.cookies.add(sent, x.session, x.incoming)
        if x.admission is not None and x.admission.held:
            succeeded = outcome is None or outcome.unsent or outcome.is_accepted
            await self.limiter.settle(x.admission, give_back=succeeded)
        if self.tracing.enabled:
            self.tracing.tag(x.ctx.request_id, x.ctx.skin, x.ctx.route)
        return sent


def respond(x: Exchange, outcome: Outcome) -> Outgoing:
    """The platform's answer as the player gets it; its failures in the common error JSON."""
    if outcome.session is not None:
        x.session = outcome.session  # the session as the call left it (a follower's too)
    if outcome.failure is not None or (outcome.status >= 500 and outcome.status != 501):
        return no_answer(outcome, x.exclusive, x.ctx)
    headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in outcome.headers.items()]
    if "content-type" not in outcome.headers:
        headers.append((b"content-type", b"application/json"))
    return Outgoing(outcome.status, headers, outcome.body, gzipped=outcome.gzip)


def session_expired(x: Exchange) -> Outgoing:
    """The platform's own `SESSION_EXPIRED` reply, without a call: a session-only route asked
    without a session, or a session whose upstream is gone (`gateway.canary.routing`)."""
    return respond(x, Outcome(200, {"content-type": "application/json"}, _EXPIRED_ANSWER))


def passed_through(answer: Answer) -> Outgoing:
    """A binary answer or an upload's reply, passed through as it arrives."""
    headers = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in answer.headers if n in STREAMED_RESPONSE_HEADERS]
    return Outgoing(answer.status, headers, chunks=answer.stream, close=answer.aclose)


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


def _refusal_label(x: Exchange, outcome: Outcome) -> str | None:
    """The answer's refusal label; none for content (the CMS has no envelope), failures and 5xx."""
    if outcome.failure is not None or outcome.status >= 500 or x.route is None or x.route.policy == "content":
        return None
    return refusal(outcome.body)


def refusal(body: bytes) -> str | None:
    """The label of a platform refusal (`{"success": false, "code": ...}`): its code when known
    (`PLATFORM_CODES`), `other` for any other, `none` without one; None for anything else.

    On every proxied answer, so it looks first at the bytes: the first `"success"` key (the
    envelope's, which the platform writes first) must be followed by `false` before anything is
    decoded (about 0.4 us an answer, bench/refusals.py); only then is the envelope decoded.
    """
    at = body.find(_SUCCESS)
    if at < 0:
        return None
    after = body[at + len(_SUCCESS) : at + 40].lstrip(_BLANK)
    if after[:1] != b":" or not after[1:].lstrip(_BLANK).startswith(b"false"):
        return None
    try:
        envelope = _envelope.decode(body)
    except msgspec.DecodeError:  # not an object, or not JSON
        return None
    if envelope.success is not False:
        return None
    code = envelope.code
    if not isinstance(code, str) or not code:
        return "none"
    return code if code in PLATFORM_CODES else "other"


def _code(body: bytes) -> object:
    """The envelope's `code`, whatever `success` says (None: not an envelope)."""
    try:
        return _envelope.decode(body).code
    except msgspec.DecodeError:
        return None
