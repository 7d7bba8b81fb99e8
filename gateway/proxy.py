"""The allowlisted proxy: catalogue routes only, forwarded to the skin's upstream with the
site and session headers, the upstream's cookies kept server-side and its XSRF token echoed.

One request, in order: path check -> catalogue match -> session -> XSRF/cross-site guard ->
body -> dedup (join an identical flight, or lead one) -> forward -> observe the answer
(capture the session at login/register, end it at logout or SESSION_EXPIRED) -> reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

import httpx
import msgspec
from litestar import Request, Response
from litestar.background_tasks import BackgroundTask
from litestar.response import Stream

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import ROUTES_BY_NAME, Route
from gateway.cache import Entry
from gateway.dedup import ExclusiveConflict, LeaderLost, body_digest
from gateway.errors import error_response, store_unavailable
from gateway.resilience import RETRYABLE_STATUS, CallPolicy, RetryBudget, backoff, may_retry
from gateway.runtime import Gateway, RequestContext, Target, headers_of
from gateway.security import SAFE_METHODS, XSRF_COOKIE, cross_site
from gateway.session import Session, decode_session
from gateway.shared import StoreUnavailable
from gateway.skins import Skin

# Percent-escapes of '.', '/', '\' and control bytes, '..' and '.' segments, empty
# segments, backslashes and scheme-like segments are refused before any lookup.
_BAD_PATH = re.compile(r"%(2e|2f|5c|0[0-9a-f]|1[0-9a-f]|7f)|\\|//|(^|/)\.\.?(/|$)|:/|[^\x21-\x7e]", re.IGNORECASE)

FORWARDED_REQUEST_HEADERS = (
    "content-type",
    "accept",
    "accept-language",
    "user-agent",
    "if-none-match",
    "if-modified-since",
)
# Content is anonymous and cached per skin + path + query: nothing else may vary its answer.
CONTENT_REQUEST_HEADERS = ("accept", "user-agent", "if-none-match", "if-modified-since")
RETURNED_RESPONSE_HEADERS = (
    "content-type",
    "cache-control",
    "etag",
    "last-modified",
    "expires",
    "content-disposition",
    "content-language",
    "retry-after",
)
STREAMED_RESPONSE_HEADERS = (*RETURNED_RESPONSE_HEADERS, "content-encoding", "content-length")
SESSION_CAPTURE_ROUTES = frozenset({"login", "register"})
LOGIN_NAME_ROUTES = frozenset({"login", "register", "forgotPassword"})
UPSTREAM_XSRF_HEADER = "X-XSRF-TOKEN"
UNSENT = frozenset({"unreachable", "open"})
"""Errors that prove the platform never saw the call (an idempotency key may be used again)."""


class CircuitOpen(Exception):
    """The skin's upstream is failing: the call was not sent."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"circuit open, retry after {retry_after}s")
        self.retry_after = retry_after


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class Outcome:
    reply: Reply
    session: Session | None
    """The session as the call left it (login and logout change it); None for content."""
    error: str | None = None
    """When the platform gave no answer: `timeout`, `unreachable` (not sent), `broken` (sent,
    the connection failed) or `open` (not sent: the breaker is open)."""
    retry_after: int | None = None


@dataclass
class Forward:
    """Everything one upstream call needs, fixed before the flight starts."""

    skin: Skin
    route: Route
    params: dict[str, str]
    session: Session
    query: str
    body: bytes | None
    stream: AsyncIterator[bytes] | None
    headers: dict[str, str]
    remember: bool = False
    login: str | None = None
    """The login name sent at login/register/forgot-password (rate limits, `/bff/session`)."""


class WireOutcome(msgspec.Struct, array_like=True):
    """An outcome as it travels between instances and into idempotency records."""

    status: int
    headers: dict[str, str]
    body: bytes
    error: str | None
    session_id: str | None
    session_data: bytes | None
    session_new: bool


def encode_outcome(outcome: Outcome) -> bytes:
    session = outcome.session
    wire = WireOutcome(
        outcome.reply.status,
        outcome.reply.headers,
        outcome.reply.body,
        outcome.error,
        session.id if session else None,
        session.encoded() if session else None,
        session.is_new if session else False,
    )
    return _outcome_encoder.encode(wire)


def decode_outcome(raw: bytes) -> Outcome:
    wire = _outcome_decoder.decode(raw)
    session = None
    if wire.session_id is not None and wire.session_data is not None:
        session = Session(
            wire.session_id, decode_session(wire.session_data), wire.session_data, is_new=wire.session_new
        )
    return Outcome(Reply(wire.status, wire.headers, wire.body), session, wire.error)


_outcome_encoder = msgspec.msgpack.Encoder()
_outcome_decoder = msgspec.msgpack.Decoder(WireOutcome)


def upstream_headers(
    gateway: Gateway, request: Request[Any, Any, Any], skin: Skin, session: Session, route: Route, ctx: RequestContext
) -> dict[str, str]:
    """An allowlist: client-sent siteid, wsession, cookies and hop-by-hop headers never pass."""
    allowed = CONTENT_REQUEST_HEADERS if route.policy == "content" else FORWARDED_REQUEST_HEADERS
    incoming = headers_of(request)
    headers = {name: value for name in allowed if (value := incoming.get(name)) is not None}
    headers["siteid"] = skin.site_id
    if session.data.wsession and route.policy != "content":
        headers["wsession"] = session.data.wsession
    headers["x-request-id"] = ctx.request_id
    peer = request.client.host if request.client else ""
    trusted = gateway.trusts(peer)
    chain = incoming.get("x-forwarded-for") if trusted else None
    headers["x-forwarded-for"] = f"{chain}, {peer}" if chain else peer
    proto = incoming.get("x-forwarded-proto") if trusted else None
    headers["x-forwarded-proto"] = proto if proto in {"http", "https"} else request.url.scheme
    # Bodies the gateway reads (login, SESSION_EXPIRED) must arrive uncompressed.
    headers["accept-encoding"] = "identity"
    return headers


def client_ip(gateway: Gateway, request: Request[Any, Any, Any]) -> str:
    """The player's address: behind a trusted balancer, the last hop it saw."""
    peer = request.client.host if request.client else ""
    chain = headers_of(request).get("x-forwarded-for")
    if gateway.trusts(peer) and chain:
        hops = [hop.strip() for hop in chain.split(",") if hop.strip()]
        untrusted = [hop for hop in hops if not gateway.trusts(hop)]
        return untrusted[-1] if untrusted else peer
    return peer


def refused_path(raw_path: str) -> bool:
    return _BAD_PATH.search(raw_path) is not None


async def proxy(gateway: Gateway, request: Request[Any, Any, Any]) -> Response[Any]:
    ctx = RequestContext.of(request)
    skin = gateway.skin_for(request)
    if skin is None:
        return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    ctx.skin = skin.id
    raw_path = request.scope.get("raw_path", b"").decode("latin-1") or request.scope["path"]
    if refused_path(raw_path):
        return error_response(400, "BAD_PATH", "This path is not allowed", ctx)
    found = gateway.catalogue.match(request.method, request.scope["path"])
    if found is None:
        return error_response(404, "NOT_FOUND", "No such route", ctx)
    route, params = found
    ctx.route, ctx.route_class = route.name, route.policy
    gateway.tracing.tag(ctx.request_id, skin.id, route.name)
    if route.policy == "content":
        return await _content(gateway, request, skin, route, params, ctx)
    try:
        session = await gateway.sessions.load(skin.id, request.cookies.get(gateway.session_cookie))
    except StoreUnavailable:
        return _unavailable(ctx)
    refusal = guard(gateway, request, session, ctx)
    if refusal is not None:
        return refusal
    if route.auth and not session.data.logged_in:
        return _reply_response(gateway, request, _expired_reply(), session, ctx)
    forward = await _prepare(gateway, request, skin, route, params, session, ctx)
    if isinstance(forward, Response):
        return forward
    who = {"ip": client_ip(gateway, request), "login": forward.login, "session": session.id}
    wait = await gateway.limiter.check(skin.id, route.name, who)
    if wait is not None:
        gateway.metrics.rate_limited.labels(skin.id, route.name).inc()
        response = error_response(429, "RATE_LIMITED", "Too many attempts, please wait and try again", ctx)
        response.headers["retry-after"] = str(wait)
        return response
    if route.binary or route.multipart:
        return await _stream(gateway, request, forward, ctx)
    response = await _flight(gateway, request, forward, ctx)
    if gateway.limiter.counts_failures(route.name) and not session.data.logged_in:
        await gateway.limiter.failed(skin.id, route.name, who)
    return response


def guard(
    gateway: Gateway, request: Request[Any, Any, Any], session: Session, ctx: RequestContext
) -> Response[Any] | None:
    """Unsafe calls must come from this site and echo the session's XSRF token."""
    if request.method in SAFE_METHODS:
        return None
    headers = headers_of(request)
    if cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host")):
        return error_response(403, "CROSS_SITE", "Cross-site requests are refused", ctx)
    if session.is_new or not gateway.xsrf.valid(session.id, headers.get("x-xsrf-token")):
        return error_response(403, "XSRF", "Missing or invalid X-XSRF-TOKEN", ctx)
    return None


async def _prepare(
    gateway: Gateway,
    request: Request[Any, Any, Any],
    skin: Skin,
    route: Route,
    params: dict[str, str],
    session: Session,
    ctx: RequestContext,
) -> Forward | Response[Any]:
    headers = upstream_headers(gateway, request, skin, session, route, ctx)
    query = request.scope.get("query_string", b"").decode("latin-1")
    if route.multipart:
        return Forward(skin, route, params, session, query, None, request.stream(), headers)
    declared = headers_of(request).get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > gateway.settings.max_json_body:
        return error_response(413, "TOO_LARGE", "Request body too large", ctx)
    body = await request.body()
    if len(body) > gateway.settings.max_json_body:
        return error_response(413, "TOO_LARGE", "Request body too large", ctx)
    forward = Forward(skin, route, params, session, query, body if route.method != "GET" else None, None, headers)
    if route.name in LOGIN_NAME_ROUTES and body:
        _take_login_fields(forward, body)
    return forward


def _take_login_fields(forward: Forward, body: bytes) -> None:
    """Notes the login name; `rememberMe` is the gateway's to keep (a persistent cookie),
    so it is taken out before the platform sees the body."""
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return
    if not isinstance(data, dict):
        return
    login = data.get("login")
    forward.login = login.lower() if isinstance(login, str) else None
    if "rememberMe" in data:
        forward.remember = data.pop("rememberMe") is True
        forward.body = msgspec.json.encode(data)


async def _content(
    gateway: Gateway,
    request: Request[Any, Any, Any],
    skin: Skin,
    route: Route,
    params: dict[str, str],
    ctx: RequestContext,
) -> Response[Any]:
    """Anonymous content: no session is read or written, the cache answers first."""
    query = request.scope.get("query_string", b"").decode("latin-1")
    key = f"bff:{skin.id}:cache:{request.scope['path']}?{_sorted_query(query)}"
    cache = gateway.cache
    entry = await cache.get(key)
    state = cache.state(entry, route.name) if entry is not None else None
    if state == "HIT" and entry is not None:
        ctx.cache = state
        return _cached_response(gateway, request, entry, state, ctx)
    session = Session.anonymous()
    headers = upstream_headers(gateway, request, skin, session, route, ctx)
    forward = Forward(skin, route, params, session, query, None, None, headers)
    if entry is not None and state is not None:
        ctx.cache = state
        if state == "STALE":
            gateway.background(cache.refresh_once(key, lambda: _fetch_entry(gateway, forward, ctx)))
        return _cached_response(gateway, request, entry, state, ctx)
    outcome = await _run_flight(gateway, request, forward, ctx)
    if isinstance(outcome, Response):
        return outcome
    failed = outcome.error is not None or outcome.reply.status >= 500
    if failed and entry is not None and cache.usable_on_error(entry, route.name):
        return _cached_response(gateway, request, entry, "STALE", ctx)
    if outcome.error is not None:
        return _upstream_error(outcome, ctx)
    if outcome.reply.status == 200:
        await cache.put(key, Entry(cache.clock(), 200, outcome.reply.headers, outcome.reply.body))
    response = _reply_response(gateway, request, outcome.reply, None, ctx)
    response.headers["x-cache"] = "MISS"
    ctx.cache = "MISS"
    return response


async def _fetch_entry(gateway: Gateway, forward: Forward, ctx: RequestContext) -> Entry | None:
    outcome = await _call(gateway, forward, ctx)
    if outcome.error is not None or outcome.reply.status != 200:
        return None
    return Entry(gateway.cache.clock(), 200, outcome.reply.headers, outcome.reply.body)


def _cached_response(
    gateway: Gateway, request: Request[Any, Any, Any], entry: Entry, state: str, ctx: RequestContext
) -> Response[Any]:
    response = _reply_response(gateway, request, Reply(entry.status, dict(entry.headers), entry.body), None, ctx)
    response.headers["x-cache"] = state
    ctx.dedup, ctx.cache = f"cache-{state.lower()}", state
    return response


async def _flight(
    gateway: Gateway, request: Request[Any, Any, Any], forward: Forward, ctx: RequestContext
) -> Response[Any]:
    route, session = forward.route, forward.session
    idempotency_key = headers_of(request).get("idempotency-key")
    record = None
    if idempotency_key is not None and route.policy == "exclusive":
        verdict = await _idempotency(gateway, request, forward, idempotency_key, ctx)
        if isinstance(verdict, Response):
            return verdict
        record = verdict
    outcome = await _run_flight(gateway, request, forward, ctx)
    if isinstance(outcome, Response):
        if record is not None:
            await _forget(gateway, record[0])
        return outcome
    if record is not None:
        await _record(gateway, record, session, outcome)
    if outcome.error is not None:
        return _upstream_error(outcome, ctx)
    return _reply_response(gateway, request, outcome.reply, outcome.session or session, ctx)


async def _run_flight(
    gateway: Gateway, request: Request[Any, Any, Any], forward: Forward, ctx: RequestContext
) -> Outcome | Response[Any]:
    """Joins an identical request in flight (in this process, then across instances) or leads one."""
    route = forward.route
    session_key = "anonymous" if route.policy == "content" else forward.session.id
    key = (forward.skin.id, session_key, route.method, request.scope["path"], _sorted_query(forward.query),
           body_digest(forward.body or b""))  # fmt: skip
    slot = (forward.skin.id, forward.session.id, route.name) if route.policy == "exclusive" else None

    async def lead() -> Outcome:
        flights = gateway.flights
        if flights is None:
            return await _call(gateway, forward, ctx)
        shared_slot = ":".join(slot) if slot is not None else None
        try:
            shared: tuple[Outcome, str] = await flights.run(
                body_digest(repr(key).encode()), lambda: _call(gateway, forward, ctx), shared_slot,
                takeover=route.policy != "exclusive",
            )  # fmt: skip
        except StoreUnavailable:
            if route.policy != "content":
                raise
            return await _call(gateway, forward, ctx)  # anonymous content goes on without Redis
        ctx.dedup = shared[1]
        return shared[0]

    try:
        joined: tuple[Outcome, str] = await gateway.dedup.run(key, lead, slot)
        outcome, role = joined
    except ExclusiveConflict:
        return error_response(409, "IN_PROGRESS", "request already in progress", ctx)
    except LeaderLost:
        return error_response(
            502, "OUTCOME_UNKNOWN", "The instance handling this request went away; check before retrying", ctx
        )
    except StoreUnavailable:
        return _unavailable(ctx)
    except TimeoutError:
        return error_response(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    ctx.dedup = "follower" if role == "follower" else (ctx.dedup or role)
    return outcome


async def _idempotency(
    gateway: Gateway, request: Request[Any, Any, Any], forward: Forward, key: str, ctx: RequestContext
) -> tuple[str, str] | Response[Any]:
    """`(record name, fingerprint)` for a new call; a replay, a join or a refusal otherwise."""
    records = gateway.records
    if not records.valid(key):
        return error_response(400, "BAD_IDEMPOTENCY_KEY", "Idempotency-Key must be 8-128 characters", ctx)
    name = records.name(forward.skin.id, key)
    fingerprint = body_digest(
        f"{forward.route.method} {request.scope['path']}?{forward.query}".encode() + (forward.body or b"")
    )
    session = forward.session
    try:
        verdict = await records.begin(name, session.id, fingerprint)
        while verdict.kind == "join":
            await asyncio.sleep(0.05)  # the first call is in flight somewhere: its answer will be recorded
            verdict = await records.begin(name, session.id, fingerprint)
    except StoreUnavailable:
        return _unavailable(ctx)
    if verdict.kind == "foreign":
        return error_response(409, "IDEMPOTENCY_KEY_IN_USE", "This Idempotency-Key belongs to another session", ctx)
    if verdict.kind == "mismatch":
        return error_response(
            422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request", ctx
        )
    if verdict.kind == "replay":
        outcome = decode_outcome(verdict.outcome)
        if outcome.error is not None:
            response = _upstream_error(outcome, ctx)
        else:
            response = _reply_response(gateway, request, outcome.reply, session, ctx)
        response.headers["idempotent-replayed"] = "true"
        ctx.dedup = "replayed"
        return response
    return name, fingerprint


async def _record(gateway: Gateway, record: tuple[str, str], session: Session, outcome: Outcome) -> None:
    name, fingerprint = record
    try:
        if outcome.error in UNSENT:
            await gateway.records.abandon(name)  # nothing reached the platform: the key may be used again
        else:
            await gateway.records.finish(name, session.id, fingerprint, encode_outcome(outcome))
    except StoreUnavailable:
        pass  # the answer still goes back; only a later replay is lost


async def _forget(gateway: Gateway, name: str) -> None:
    with contextlib.suppress(StoreUnavailable):
        await gateway.records.abandon(name)


async def _call(gateway: Gateway, forward: Forward, ctx: RequestContext) -> Outcome:
    """The leader's upstream call, and what its answer does to the session (done once)."""
    route, session = forward.route, forward.session
    try:
        response = await call_upstream(gateway, forward.skin, route, forward.params, session, forward.query,
                                       forward.body, forward.headers, ctx)  # fmt: skip
    except CircuitOpen as exc:
        return Outcome(Reply(503, {}, b""), None, "open", exc.retry_after)
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout):
        return Outcome(Reply(502, {}, b""), None, "unreachable")
    except (httpx.TimeoutException, TimeoutError):
        return Outcome(Reply(504, {}, b""), None, "timeout")
    except httpx.TransportError:
        return Outcome(Reply(502, {}, b""), None, "broken")
    reply = Reply(
        response.status_code, _returned_headers(response.headers, RETURNED_RESPONSE_HEADERS), response.content
    )
    if route.policy == "content":
        return Outcome(reply, None)
    reply = _observe(route, reply, session, forward)
    await gateway.sessions.save(forward.skin.id, session)
    return Outcome(reply, session)


def _upstream_error(outcome: Outcome, ctx: RequestContext) -> Response[Any]:
    if outcome.error == "timeout":
        return error_response(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    if outcome.error == "open":
        response = error_response(503, "UPSTREAM_UNAVAILABLE", "The platform is not answering, please try again", ctx)
        response.headers["retry-after"] = str(outcome.retry_after or 1)
        return response
    if outcome.error == "broken":
        return error_response(502, "UPSTREAM_FAILED", "The platform's answer was lost; check before retrying", ctx)
    return error_response(502, "UPSTREAM_UNREACHABLE", "The platform cannot be reached", ctx)


def _unavailable(ctx: RequestContext) -> Response[Any]:
    return store_unavailable(ctx)


def _sorted_query(query: str) -> str:
    return urlencode(sorted(parse_qsl(query, keep_blank_values=True)))


async def call_upstream(
    gateway: Gateway,
    skin: Skin,
    route: Route,
    params: dict[str, str],
    session: Session,
    query: str,
    body: bytes | None,
    headers: dict[str, str],
    ctx: RequestContext,
) -> httpx.Response:
    """One buffered upstream call with the session's cookies and the upstream's XSRF echo,
    within its route class's deadline, retried where `may_retry` allows, through the
    skin's breaker for that upstream.

    Content calls are anonymous: no session cookies go out and none are kept.
    """
    target = gateway.upstream_target(skin, route, params, session, query)
    policy = gateway.policies[route.policy]
    breaker = gateway.breakers.get(skin.id, target.upstream)
    if not breaker.allow():
        raise CircuitOpen(breaker.retry_after())
    # The breaker counts calls (all their attempts), not attempts: one flaky GET retried
    # twice is one failure, and a half-open probe is one call.
    try:
        async with asyncio.timeout(policy.deadline_s):
            response = await _attempts(gateway, skin, route, target, policy, session, body, headers, ctx)
    except httpx.TransportError as exc:
        breaker.failure(type(exc).__name__)
        raise
    except TimeoutError:
        breaker.failure("deadline")
        raise
    except BaseException:  # cancelled: the player went away
        breaker.abandon()
        raise
    status = response.status_code
    if status >= 500 and status != 501:
        breaker.failure(f"status {status}")
    else:
        breaker.success()
    ctx.upstream_status = status
    return response


async def _attempts(
    gateway: Gateway,
    skin: Skin,
    route: Route,
    target: Target,
    policy: CallPolicy,
    session: Session,
    body: bytes | None,
    headers: dict[str, str],
    ctx: RequestContext,
) -> httpx.Response:
    budget = gateway.breakers.budget(skin.id, target.upstream)
    budget.deposit()
    keeps_cookies = route.policy != "content"
    extensions = policy.extensions
    attempt, resent_for_xsrf = 0, False
    while True:
        sent = dict(headers)
        if keeps_cookies:
            _add_jar(sent, session.data.jars.get(target.origin, {}))
        try:
            with ctx.upstream_timer(), gateway.tracing.upstream(route.name, route.method, target.upstream,
                                                                sent) as span:  # fmt: skip
                response = await target.transport.handle_async_request(
                    httpx.Request(
                        route.method, parsed_url(target.url), headers=sent, content=body, extensions=extensions
                    )
                )
                await response.aread()
                gateway.tracing.status(span, response.status_code)
        except httpx.TransportError as exc:
            failure = _failure_kind(exc)
            if (
                not may_retry(route.policy, route.method, failure)
                or attempt >= policy.retries
                or not _retry_allowed(gateway, skin, route, budget, failure)
            ):
                raise
        else:
            status = response.status_code
            jar_changed = keeps_cookies and _keep_cookies(session, target.origin, response)
            # A visitor's first unsafe call meets the upstream's XSRF check before it has a
            # token: the upstream refuses it unprocessed and issues one, so it is sent once more.
            if status == 403 and jar_changed and route.method != "GET" and not resent_for_xsrf:
                resent_for_xsrf = True
                continue
            if (
                status not in RETRYABLE_STATUS
                or not may_retry(route.policy, route.method, "status")
                or attempt >= policy.retries
                or not _retry_allowed(gateway, skin, route, budget, "status")
            ):
                return response
        attempt += 1
        await asyncio.sleep(backoff(attempt))


_URLS: dict[str, httpx.URL] = {}


def parsed_url(url: str) -> httpx.URL:
    """httpx parses and re-quotes every URL it is given (a tenth of a proxied call's CPU);
    the same few upstream URLs come back all the time, so their parsed form is kept."""
    found = _URLS.get(url)
    if found is None:
        found = httpx.URL(url)
        if len(_URLS) >= 8192:
            _URLS.clear()
        _URLS[url] = found
    return found


def _failure_kind(exc: httpx.TransportError) -> str:
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)):
        return "connect"
    if isinstance(exc, httpx.TimeoutException):
        return "timeout"
    return "broken"


def _retry_allowed(gateway: Gateway, skin: Skin, route: Route, budget: RetryBudget, reason: str) -> bool:
    if not budget.withdraw():
        gateway.metrics.retries_refused.labels(skin.id).inc()
        return False
    gateway.metrics.retries.labels(skin.id, route.policy, reason).inc()
    return True


def _observe(route: Route, reply: Reply, session: Session, forward: Forward) -> Reply:
    """Capture the upstream session at login/register (and strip it), end it at logout
    or on SESSION_EXPIRED."""
    if route.name == "logout":
        session.log_out()
        return reply
    if route.name in SESSION_CAPTURE_ROUTES and b"sessionId" in reply.body:
        return _capture(reply, session, forward)
    if SESSION_EXPIRED.encode() in reply.body and _code(reply.body) == SESSION_EXPIRED:
        session.log_out()
    return reply


def _capture(reply: Reply, session: Session, forward: Forward) -> Reply:
    try:
        data = msgspec.json.decode(reply.body)
    except msgspec.DecodeError:
        return reply
    if not isinstance(data, dict):
        return reply
    found = data.get("loginResponse")
    nested: dict[str, Any] = found if isinstance(found, dict) else {}
    wsession = data.pop("sessionId", None) or nested.get("sessionId")
    nested.pop("sessionId", None)
    if data.get("success") is True and isinstance(wsession, str) and wsession:
        login = nested.get("login") or data.get("login")
        session.log_in(wsession, login if isinstance(login, str) else forward.login, forward.remember)
    return Reply(reply.status, reply.headers, msgspec.json.encode(data))


def _code(body: bytes) -> str | None:
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None
    return data.get("code") if isinstance(data, dict) else None


def _expired_reply() -> Reply:
    body = msgspec.json.encode({"success": False, "code": SESSION_EXPIRED, "description": "Session expired"})
    return Reply(200, {"content-type": "application/json"}, body)


async def _stream(
    gateway: Gateway, request: Request[Any, Any, Any], forward: Forward, ctx: RequestContext
) -> Response[Any]:
    """Binary answers (media, captcha) and uploads stream through without being held."""
    route, session = forward.route, forward.session
    target = gateway.upstream_target(forward.skin, route, forward.params, session, forward.query)
    client, url, origin = target.client, target.url, target.origin
    breaker = gateway.breakers.get(forward.skin.id, target.upstream)
    headers = dict(forward.headers)
    if route.policy != "content":
        _add_jar(headers, session.data.jars.get(origin, {}))
    if forward.stream is not None and (length := headers_of(request).get("content-length")):
        headers["content-length"] = length
    if route.binary and (encoding := headers_of(request).get("accept-encoding")):
        headers["accept-encoding"] = encoding
    slot = (forward.skin.id, session.id, route.name) if route.policy == "exclusive" else None
    if slot is not None and not gateway.claim(slot):
        return error_response(409, "IN_PROGRESS", "request already in progress", ctx)
    # No end-to-end deadline here: an upload takes as long as the player's line needs;
    # the connect and per-read timeouts still hold. Never retried (the body is gone).
    failure: Outcome | None = None
    try:
        if not breaker.allow():
            failure = Outcome(Reply(503, {}, b""), None, "open", breaker.retry_after())
        else:
            upstream_request = client.build_request(
                route.method, url, headers=headers,
                content=forward.stream if forward.stream is not None else forward.body,
                timeout=gateway.policies[route.policy].timeout,
            )  # fmt: skip
            with ctx.upstream_timer(), gateway.tracing.upstream(route.name, route.method, target.upstream, headers):
                response = await client.send(upstream_request, stream=True)
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout):
        failure = Outcome(Reply(502, {}, b""), None, "unreachable")
    except httpx.TimeoutException:
        failure = Outcome(Reply(504, {}, b""), None, "timeout")
    except httpx.TransportError:
        failure = Outcome(Reply(502, {}, b""), None, "broken")
    except BaseException:
        breaker.abandon()
        raise
    finally:
        if slot is not None:
            gateway.release(slot)
    if failure is not None:
        if failure.error != "open":
            breaker.failure(failure.error or "error")
        return _upstream_error(failure, ctx)
    if response.status_code >= 500 and response.status_code != 501:
        breaker.failure(f"status {response.status_code}")
    else:
        breaker.success()
    ctx.upstream_status = response.status_code
    if response.status_code >= 500 and response.status_code != 501:
        await response.aclose()
        return _platform_failure(response.status_code, route.policy == "exclusive", ctx)
    if route.policy != "content" and _keep_cookies(session, origin, response):
        await gateway.sessions.save(forward.skin.id, session)
    stream = Stream(
        response.aiter_raw(),
        status_code=response.status_code,
        headers=_returned_headers(response.headers, STREAMED_RESPONSE_HEADERS),
        background=BackgroundTask(response.aclose),
    )
    gateway.finish(request, stream, session, ctx)
    return stream


def _platform_failure(status: int, exclusive: bool, ctx: RequestContext) -> Response[Any]:
    """The platform's own 5xx, told in the common error JSON: a 500 from here would read as the
    gateway failing, and the platform's error page is no use to a player."""
    if status == 503:
        return error_response(503, "UPSTREAM_UNAVAILABLE", "The platform is not answering, please try again", ctx)
    if status == 504:
        return error_response(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    if exclusive:
        return error_response(502, "UPSTREAM_FAILED", "The platform failed this request; check before retrying", ctx)
    return error_response(502, "UPSTREAM_ERROR", "The platform failed this request", ctx)


def _reply_response(
    gateway: Gateway, request: Request[Any, Any, Any], reply: Reply, session: Session | None, ctx: RequestContext
) -> Response[Any]:
    if reply.status >= 500 and reply.status != 501:
        route = ROUTES_BY_NAME.get(ctx.route or "")
        failure = _platform_failure(reply.status, route is not None and route.policy == "exclusive", ctx)
        if "retry-after" in reply.headers:
            failure.headers["retry-after"] = reply.headers["retry-after"]
        gateway.finish(request, failure, session, ctx)
        return failure
    response: Response[Any] = Response(
        content=reply.body,
        status_code=reply.status,
        headers=reply.headers,
        media_type=reply.headers.get("content-type", "application/json"),
    )
    gateway.finish(request, response, session, ctx)
    return response


def _returned_headers(headers: httpx.Headers, allowed: tuple[str, ...]) -> dict[str, str]:
    return {name: value for name in allowed if (value := headers.get(name)) is not None}


def _add_jar(headers: dict[str, str], jar: dict[str, str]) -> None:
    if not jar:
        return
    headers["cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
    token = jar.get(XSRF_COOKIE)
    if token:
        headers[UPSTREAM_XSRF_HEADER] = token


def _keep_cookies(session: Session, origin: str, response: httpx.Response) -> bool:
    """Upstream cookies go to the session's jar for that origin, never to the browser."""
    set_cookies = response.headers.get_list("set-cookie")
    if not set_cookies:
        return False
    jar = dict(session.data.jars.get(origin, {}))
    for header in set_cookies:
        for name, morsel in _parse_cookie(header).items():
            expired = morsel["max-age"] == "0" or morsel.value in {"", "null"}
            if expired:
                jar.pop(name, None)
            else:
                jar[name] = morsel.value
    if jar == session.data.jars.get(origin, {}):
        return False
    session.data.jars = {**session.data.jars, origin: jar}
    return True


def _parse_cookie(header: str) -> SimpleCookie:
    parsed: SimpleCookie = SimpleCookie()
    try:
        parsed.load(header)
    except Exception:  # an unparsable cookie is the upstream's problem, not the player's
        return SimpleCookie()
    return parsed
