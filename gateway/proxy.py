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
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

import httpx
import msgspec
import structlog

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import ROUTES_BY_NAME, Route
from gateway.cache import Entry, not_modified, shareable, validators
from gateway.dedup import ExclusiveConflict, LeaderLost, body_digest
from gateway.errors import error_answer, outcome_unknown_answer, store_unavailable_answer
from gateway.exchange import BodyTooLarge, Incoming, Outgoing
from gateway.ratelimit import Who, address_key
from gateway.resilience import RETRYABLE_STATUS, CallPolicy, RetryBudget, backoff, may_retry
from gateway.runtime import Gateway, RequestContext, Target
from gateway.security import SAFE_METHODS, XSRF_COOKIE, cross_site
from gateway.session import Session, decode_session
from gateway.shared import StoreUnavailable
from gateway.skins import Skin
from gateway.transport import Answer, StaleConnection

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
# Content is anonymous and cached per skin + path + query: nothing else may vary its answer. The
# browser's conditionals are answered by the gateway from the copy it serves, never forwarded (a
# joined flight would hand its 304 to a visitor who asked for the whole answer).
CONTENT_REQUEST_HEADERS = ("accept", "user-agent")
RETURNED_RESPONSE_HEADERS = frozenset(
    {
        "content-type",
        "cache-control",
        "etag",
        "last-modified",
        "expires",
        "content-disposition",
        "content-language",
        "retry-after",
        "vary",
        "age",
    }
)
STREAMED_RESPONSE_HEADERS = RETURNED_RESPONSE_HEADERS | {"content-encoding", "content-length"}
SESSION_CAPTURE_ROUTES = frozenset({"login", "register"})
LOGIN_NAME_ROUTES = frozenset({"login", "register", "forgotPassword"})
UPSTREAM_XSRF_HEADER = "X-XSRF-TOKEN"
log = structlog.get_logger("gateway.proxy")
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

    @property
    def unsent(self) -> bool:
        """The platform never saw the call."""
        return self.error in UNSENT

    @property
    def accepted(self) -> bool:
        """The platform answered and said yes (`success: true`)."""
        if self.error is not None or self.reply.status != 200 or b'"success"' not in self.reply.body:
            return False
        try:
            data = msgspec.json.decode(self.reply.body)
        except msgspec.DecodeError:
            return False
        return isinstance(data, dict) and data.get("success") is True


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
    address: str = ""
    """The client, as limits count it (`ratelimit.address_key`)."""
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
    gateway: Gateway, incoming: Incoming, skin: Skin, session: Session, route: Route, ctx: RequestContext
) -> dict[str, str]:
    """An allowlist: client-sent siteid, wsession, cookies and hop-by-hop headers never pass."""
    allowed = CONTENT_REQUEST_HEADERS if route.policy == "content" else FORWARDED_REQUEST_HEADERS
    given = incoming.headers
    headers = {name: value for name in allowed if (value := given.get(name)) is not None}
    headers["siteid"] = skin.site_id
    if session.data.wsession and route.policy != "content":
        headers["wsession"] = session.data.wsession
    headers["x-request-id"] = ctx.request_id
    peer = incoming.peer
    trusted = gateway.trusts(peer)
    chain = given.get("x-forwarded-for") if trusted else None
    headers["x-forwarded-for"] = f"{chain}, {peer}" if chain else peer
    proto = given.get("x-forwarded-proto") if trusted else None
    headers["x-forwarded-proto"] = proto if proto in {"http", "https"} else incoming.scheme
    # Bodies the gateway reads (login, SESSION_EXPIRED) must arrive uncompressed.
    headers["accept-encoding"] = "identity"
    return headers


def client_ip(gateway: Gateway, incoming: Incoming) -> str:
    """The player's address: behind a trusted balancer, the last hop it saw."""
    peer = incoming.peer
    chain = incoming.headers.get("x-forwarded-for")
    if gateway.trusts(peer) and chain:
        hops = [hop.strip() for hop in chain.split(",") if hop.strip()]
        untrusted = [hop for hop in hops if not gateway.trusts(hop)]
        return untrusted[-1] if untrusted else peer
    return peer


def refused_path(raw_path: str) -> bool:
    return _BAD_PATH.search(raw_path) is not None


async def proxy(gateway: Gateway, incoming: Incoming, ctx: RequestContext) -> Outgoing:
    skin = gateway.skins.for_host(incoming.headers.get("host"))
    if skin is None:
        return error_answer(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    ctx.skin = skin.id
    if refused_path(incoming.raw_path):
        return error_answer(400, "BAD_PATH", "This path is not allowed", ctx)
    found = gateway.catalogue.match(incoming.method, incoming.path)
    if found is None:
        return error_answer(404, "NOT_FOUND", "No such route", ctx)
    route, params = found
    ctx.route, ctx.route_class = route.name, route.policy
    encoding = incoming.headers.get("content-encoding")
    if encoding is not None and encoding.strip().lower() not in ("", "identity"):
        # The gateway reads bodies (login names, rememberMe) and the platform never said it inflates them.
        return error_answer(415, "UNSUPPORTED_ENCODING", "Compressed request bodies are not accepted", ctx)
    if gateway.tracing.enabled:
        gateway.tracing.tag(ctx.request_id, skin.id, route.name)
    if route.policy == "content":
        return await _content(gateway, incoming, skin, route, params, ctx)
    try:
        session = await gateway.sessions.load(skin.id, incoming.cookie(gateway.session_cookie))
    except StoreUnavailable:
        return store_unavailable_answer(ctx)
    refused = refusal(gateway, incoming.method, incoming.headers, session)
    if refused is not None:
        return error_answer(403, *refused, ctx)
    if route.auth and not session.data.logged_in:
        return _reply_answer(gateway, incoming, _expired_reply(), session, ctx)
    address = address_key(client_ip(gateway, incoming))
    limiter = gateway.limiter
    if not session.data.logged_in and (wait := limiter.visitors.wait(address)) is not None:
        return _rate_limited(gateway, skin, route, wait, ctx)
    forward = await _prepare(gateway, incoming, skin, route, params, session, address, ctx)
    if isinstance(forward, Outgoing):
        return forward
    admission = None
    if limiter.limits(route.name):
        admission = await limiter.admit(skin.id, route.name, _who(gateway, incoming, forward))
        if admission.wait is not None:
            return _rate_limited(gateway, skin, route, admission.wait, ctx)
    if route.binary or route.multipart:
        return await _stream(gateway, incoming, forward, ctx)
    answer, outcome = await _flight(gateway, incoming, forward, ctx)
    if admission is not None and admission.held:
        # A success, or a call the platform never saw, gives back its places in failure limits.
        unsent = outcome.unsent if outcome is not None else refused_before_sending(answer.status)
        await limiter.settle(admission, give_back=unsent or (outcome is not None and outcome.accepted))
    return answer


def refused_before_sending(status: int) -> bool:
    """An answer of the gateway's own that no call was made or joined for: another call of the
    session in flight (409), or the store down (503)."""
    return status in (409, 503)


def _who(gateway: Gateway, incoming: Incoming, forward: Forward) -> Who:
    """Whom a limited call counts against. A login attempt from a browser that logged in to this
    account before (its device cookie) counts against that device, not the account."""
    login = forward.login
    device = None
    if forward.route.name == "login":
        device = gateway.devices.device(incoming.cookie(gateway.device_cookie), login)
    return {
        "ip": forward.address,
        "session": forward.session.id,
        "login": login if device is None else None,
        "device": f"{login}:{device}" if device is not None else None,
    }


def _rate_limited(gateway: Gateway, skin: Skin, route: Route, wait: int, ctx: RequestContext) -> Outgoing:
    gateway.metrics.rate_limited.labels(skin.id, route.name).inc()
    answer = error_answer(429, "RATE_LIMITED", "Too many attempts, please wait and try again", ctx)
    answer.set_header("retry-after", str(wait))
    return answer


def refusal(gateway: Gateway, method: str, headers: dict[str, str], session: Session) -> tuple[str, str] | None:
    """Unsafe calls must come from this site and echo the session's XSRF token: the code and
    message of a 403 when they do not."""
    if method in SAFE_METHODS:
        return None
    if cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host")):
        return "CROSS_SITE", "Cross-site requests are refused"
    if session.is_new or not gateway.xsrf.valid(session.id, headers.get("x-xsrf-token")):
        return "XSRF", "Missing or invalid X-XSRF-TOKEN"
    return None


async def _prepare(
    gateway: Gateway,
    incoming: Incoming,
    skin: Skin,
    route: Route,
    params: dict[str, str],
    session: Session,
    address: str,
    ctx: RequestContext,
) -> Forward | Outgoing:
    headers = upstream_headers(gateway, incoming, skin, session, route, ctx)
    query = incoming.query
    declared = incoming.headers.get("content-length")
    limit = gateway.settings.max_upload_body if route.multipart else gateway.settings.max_json_body
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return error_answer(413, "TOO_LARGE", "Request body too large", ctx)
    if route.multipart:
        return Forward(skin, route, params, session, query, None, incoming.chunks(limit), headers, address)
    try:
        body = await incoming.body(limit)
    except BodyTooLarge:
        return error_answer(413, "TOO_LARGE", "Request body too large", ctx)
    forward = Forward(
        skin, route, params, session, query, body if route.method != "GET" else None, None, headers, address
    )
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
    incoming: Incoming,
    skin: Skin,
    route: Route,
    params: dict[str, str],
    ctx: RequestContext,
) -> Outgoing:
    """Anonymous content: no session is read or written, the cache answers first."""
    query = incoming.query
    key = f"bff:{skin.id}:cache:{incoming.path}?{_sorted_query(query)}"
    cache = gateway.cache
    entry = await cache.get(key)
    state = cache.state(entry) if entry is not None else None
    if state == "HIT" and entry is not None:
        return _cached_answer(gateway, incoming, entry, state, ctx)
    session = Session.anonymous()
    headers = upstream_headers(gateway, incoming, skin, session, route, ctx)
    forward = Forward(skin, route, params, session, query, None, None, headers)
    if entry is not None and state is not None:
        gateway.background(cache.refresh_once(key, lambda: _fetch_entry(gateway, forward, key, ctx)))
        return _cached_answer(gateway, incoming, entry, state, ctx)
    if entry is not None:  # past its freshness: asked again, conditionally where it has validators
        forward.headers.update(validators(entry))
    outcome = await _run_flight(gateway, incoming, forward, ctx)
    if isinstance(outcome, Outgoing):
        return outcome
    failed = outcome.error is not None or outcome.reply.status >= 500
    if failed and entry is not None and cache.usable_on_error(entry):
        return _cached_answer(gateway, incoming, entry, "STALE", ctx)
    if outcome.error is not None:
        return _upstream_error(outcome, ctx)
    reply = outcome.reply
    if reply.status == 304 and entry is not None:
        entry = cache.revalidated(entry, route.name, reply.headers)
        await cache.put(key, entry)
        return _cached_answer(gateway, incoming, entry, "REVALIDATED", ctx)
    if reply.status == 304:  # a joined revalidation this instance holds no copy for
        outcome = await _call(gateway, Forward(skin, route, params, session, query, None, None, headers), ctx)
        if outcome.error is not None:
            return _upstream_error(outcome, ctx)
        reply = outcome.reply
    if reply.status == 200:
        fresh = cache.entry(route.name, 200, reply.headers, reply.body)
        if fresh is not None:
            await cache.put(key, fresh)
        elif entry is not None:
            await cache.forget(key)
    if reply.status == 200 and not_modified(incoming.headers, reply.headers):
        return _not_modified(reply.headers, "MISS", ctx)
    answer = _reply_answer(gateway, incoming, reply, None, ctx)
    answer.headers.append((b"x-cache", b"MISS"))
    ctx.cache = "MISS"
    return answer


async def _fetch_entry(gateway: Gateway, forward: Forward, key: str, ctx: RequestContext) -> Entry | None:
    outcome = await _call(gateway, forward, ctx)
    if outcome.error is not None or outcome.reply.status != 200:
        return None
    entry = gateway.cache.entry(forward.route.name, 200, outcome.reply.headers, outcome.reply.body)
    if entry is None:  # the platform no longer lets it be kept: the old copy goes too
        await gateway.cache.forget(key)
    return entry


def _cached_answer(gateway: Gateway, incoming: Incoming, entry: Entry, state: str, ctx: RequestContext) -> Outgoing:
    """A cached copy with its age; it carries no session, so it sets no cookie."""
    ctx.dedup, ctx.cache = f"cache-{state.lower()}", state
    headers = {**entry.headers, "age": str(gateway.cache.age(entry))}
    if not_modified(incoming.headers, headers):
        return _not_modified(headers, state, ctx)
    listed = _header_list(headers)
    listed.append((b"x-request-id", ctx.request_id.encode("latin-1")))
    listed.append((b"x-cache", state.encode()))
    return Outgoing(entry.status, listed, entry.body)


def _not_modified(headers: dict[str, str], state: str, ctx: RequestContext) -> Outgoing:
    """The browser's own copy is current: 304 with the headers that describe it, no body."""
    kept = {name: value for name, value in headers.items() if name not in ("content-type", "content-length")}
    listed = _header_list(kept)
    listed.append((b"x-request-id", ctx.request_id.encode("latin-1")))
    listed.append((b"x-cache", state.encode()))
    return Outgoing(304, listed)


async def _flight(
    gateway: Gateway, incoming: Incoming, forward: Forward, ctx: RequestContext
) -> tuple[Outgoing, Outcome | None]:
    """The answer, and the platform's outcome it came from (None when no call was made or joined)."""
    route, session = forward.route, forward.session
    idempotency_key = incoming.headers.get("idempotency-key")
    record = None
    if idempotency_key is not None and route.policy == "exclusive":
        verdict = await _idempotency(gateway, incoming, forward, idempotency_key, ctx)
        if isinstance(verdict, Outgoing):
            return verdict, None
        record = verdict
    outcome = await _run_flight(gateway, incoming, forward, ctx)
    if isinstance(outcome, Outgoing):
        if record is not None:
            await _settle_unanswered(gateway, record, session, outcome.status)
        return outcome, None
    if record is not None:
        await _record(gateway, record, session, outcome)
    if outcome.error is not None:
        return _upstream_error(outcome, ctx), outcome
    return _reply_answer(gateway, incoming, outcome.reply, outcome.session or session, ctx), outcome


async def _run_flight(
    gateway: Gateway, incoming: Incoming, forward: Forward, ctx: RequestContext
) -> Outcome | Outgoing:
    """Joins an identical request in flight (in this process, then across instances) or leads one."""
    route = forward.route
    session_key = "anonymous" if route.policy == "content" else forward.session.id
    # Two player actions (two Idempotency-Keys) with the same body are two calls, never one.
    action = incoming.headers.get("idempotency-key", "") if route.policy == "exclusive" else ""
    key = (forward.skin.id, session_key, route.method, incoming.path, _sorted_query(forward.query),
           body_digest(forward.body) if forward.body else "", action)  # fmt: skip
    slot = (forward.skin.id, forward.session.id, route.name) if route.policy == "exclusive" else None

    async def lead() -> Outcome:
        flights = gateway.flights
        if flights is None:
            return await _call(gateway, forward, ctx)
        shared_slot = ":".join(slot) if slot is not None else None
        try:
            shared: tuple[Outcome, str] = await flights.run(
                body_digest(repr(key).encode()), lambda: _call(gateway, forward, ctx), shared_slot,
                takeover=route.policy != "exclusive", within_s=gateway.policies[route.policy].deadline_s,
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
        return error_answer(409, "IN_PROGRESS", "request already in progress", ctx)
    except LeaderLost:
        return outcome_unknown_answer(ctx)
    except StoreUnavailable:
        return store_unavailable_answer(ctx)
    except TimeoutError:
        log.warning("flight.wait_timed_out", skin=forward.skin.id, route=route.name, request_id=ctx.request_id,
                    exc_info=True)  # fmt: skip
        return error_answer(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    ctx.dedup = "follower" if role == "follower" else (ctx.dedup or role)
    if role == "follower" and not shared_outcome(outcome):
        return await _call(gateway, forward, ctx)  # one visitor's private answer is not another's
    return outcome


def shared_outcome(outcome: Outcome) -> bool:
    """Whether an outcome may serve the other requests joined to its flight: always within one
    session; for anonymous content only as the platform's Cache-Control and Vary allow."""
    return outcome.session is not None or shareable(outcome.reply.headers)


async def _idempotency(
    gateway: Gateway, incoming: Incoming, forward: Forward, key: str, ctx: RequestContext
) -> tuple[str, str, bytes] | Outgoing:
    """`(record name, fingerprint, holder token)` for a new call; a replay or a refusal otherwise."""
    records = gateway.records
    if not records.valid(key):
        return error_answer(400, "BAD_IDEMPOTENCY_KEY", "Idempotency-Key must be 8-128 characters", ctx)
    name = records.name(forward.skin.id, key)
    fingerprint = body_digest(
        f"{forward.route.method} {incoming.path}?{forward.query}".encode() + (forward.body or b"")
    )
    session = forward.session
    try:
        verdict = await records.begin(name, session.id, fingerprint, gateway.policies[forward.route.policy].deadline_s)
    except StoreUnavailable:
        return store_unavailable_answer(ctx)
    if verdict.kind == "foreign":
        return error_answer(409, "IDEMPOTENCY_KEY_IN_USE", "This Idempotency-Key belongs to another session", ctx)
    if verdict.kind == "mismatch":
        return error_answer(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request", ctx)
    if verdict.kind == "unknown":
        ctx.dedup = "unknown"
        return outcome_unknown_answer(ctx)
    if verdict.kind == "replay":
        outcome = decode_outcome(verdict.outcome)
        if outcome.error is not None:
            answer = _upstream_error(outcome, ctx)
        else:
            answer = _reply_answer(gateway, incoming, outcome.reply, session, ctx)
        answer.headers.append((b"idempotent-replayed", b"true"))
        ctx.dedup = "replayed"
        return answer
    return name, fingerprint, verdict.token


async def _record(gateway: Gateway, record: tuple[str, str, bytes], session: Session, outcome: Outcome) -> None:
    name, fingerprint, token = record
    try:
        if outcome.unsent:
            await gateway.records.abandon(name)  # nothing reached the platform: the key may be used again
        else:
            await gateway.records.finish(name, session.id, fingerprint, encode_outcome(outcome), token)
    except StoreUnavailable:
        pass  # the answer still goes back; a replay finds the record in flight, then unknown


async def _settle_unanswered(gateway: Gateway, record: tuple[str, str, bytes], session: Session, status: int) -> None:
    """A call that got no outcome of its own: refused before it left (409, 503), the key may be
    used again; joined to a flight that was lost (502, 504), its outcome is unknown for good."""
    name, fingerprint, token = record
    with contextlib.suppress(StoreUnavailable):
        if refused_before_sending(status):
            await gateway.records.abandon(name)
        else:
            await gateway.records.lose(name, session.id, fingerprint, token)


async def _call(gateway: Gateway, forward: Forward, ctx: RequestContext) -> Outcome:
    """The leader's upstream call, and what its answer does to the session (done once)."""
    route, session = forward.route, forward.session
    try:
        answer = await call_upstream(gateway, forward.skin, route, forward.params, session, forward.query,
                                     forward.body, forward.headers, ctx)  # fmt: skip
    except CircuitOpen as exc:
        return Outcome(Reply(503, {}, b""), None, "open", exc.retry_after)
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
        _failed(forward, ctx, exc)
        return Outcome(Reply(502, {}, b""), None, "unreachable")
    except (httpx.TimeoutException, TimeoutError) as exc:
        _failed(forward, ctx, exc)
        return Outcome(Reply(504, {}, b""), None, "timeout")
    except httpx.TransportError as exc:
        _failed(forward, ctx, exc)
        return Outcome(Reply(502, {}, b""), None, "broken")
    reply = Reply(answer.status, _returned_headers(answer.headers, RETURNED_RESPONSE_HEADERS), answer.body)
    if route.policy == "content":
        return Outcome(reply, None)
    reply = _observe(route, reply, session, forward)
    await gateway.sessions.save(forward.skin.id, session, forward.address)
    return Outcome(reply, session)


def _failed(forward: Forward, ctx: RequestContext, exc: BaseException) -> None:
    """Why a call got no answer, for operators (the exception's kind and our own words, never a URL)."""
    detail = str(exc)[:120] if isinstance(exc, httpx.TransportError) and "://" not in str(exc) else ""
    log.warning("upstream.call_failed", skin=forward.skin.id, route=forward.route.name, error=type(exc).__name__,
                detail=detail, request_id=ctx.request_id)  # fmt: skip


def _upstream_error(outcome: Outcome, ctx: RequestContext) -> Outgoing:
    if outcome.error == "timeout":
        return error_answer(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    if outcome.error == "open":
        answer = error_answer(503, "UPSTREAM_UNAVAILABLE", "The platform is not answering, please try again", ctx)
        answer.headers.append((b"retry-after", str(outcome.retry_after or 1).encode()))
        return answer
    if outcome.error == "broken":
        return error_answer(502, "UPSTREAM_FAILED", "The platform's answer was lost; check before retrying", ctx)
    return error_answer(502, "UPSTREAM_UNREACHABLE", "The platform cannot be reached", ctx)


def _sorted_query(query: str) -> str:
    if not query:
        return ""
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
) -> Answer:
    """One upstream call, its answer read whole, with the session's cookies and the upstream's
    XSRF echo, within its route class's deadline, retried where `may_retry` allows, through the
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
            answer = await _attempts(gateway, skin, route, target, policy, session, body, headers, ctx)
    except httpx.TransportError as exc:
        breaker.failure(type(exc).__name__)
        raise
    except TimeoutError:
        breaker.failure("deadline")
        raise
    except BaseException:  # cancelled: the player went away
        breaker.abandon()
        raise
    status = answer.status
    if status >= 500 and status != 501:
        breaker.failure(f"status {status}")
    else:
        breaker.success()
    ctx.upstream_status = status
    return answer


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
) -> Answer:
    budget = gateway.breakers.budget(skin.id, target.upstream)
    budget.deposit()
    keeps_cookies = route.policy != "content"
    timeouts = policy.timeouts
    tracing = gateway.tracing
    attempt, resent_for_xsrf = 0, False
    while True:
        sent = dict(headers)
        if keeps_cookies:
            _add_jar(sent, session.data.jars.get(target.origin))
        started = time.perf_counter()
        try:
            if tracing.enabled:
                with tracing.upstream(route.name, route.method, target.upstream, sent) as span:
                    answer = await target.transport.request(route.method, target.target, sent, body, timeouts)
                    tracing.status(span, answer.status)
            else:
                answer = await target.transport.request(route.method, target.target, sent, body, timeouts)
        except httpx.TransportError as exc:
            failure = _failure_kind(exc)
            if (
                not may_retry(route.policy, route.method, failure)
                or attempt >= policy.retries
                or not _retry_allowed(gateway, skin, route, budget, failure)
            ):
                raise
        else:
            status = answer.status
            jar_changed = keeps_cookies and _keep_cookies(session, target.origin, answer)
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
                return answer
        finally:
            ctx.upstream_ms += (time.perf_counter() - started) * 1000
        attempt += 1
        await asyncio.sleep(backoff(attempt))


def _failure_kind(exc: httpx.TransportError) -> str:
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)):
        return "connect"
    if isinstance(exc, StaleConnection):
        return "stale"
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
    if _EXPIRED in reply.body and _code(reply.body) == SESSION_EXPIRED:
        session.log_out()
    return reply


_EXPIRED = SESSION_EXPIRED.encode()


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


async def _stream(gateway: Gateway, incoming: Incoming, forward: Forward, ctx: RequestContext) -> Outgoing:
    """Binary answers (media, captcha) and uploads stream through without being held."""
    route, session = forward.route, forward.session
    target = gateway.upstream_target(forward.skin, route, forward.params, session, forward.query)
    breaker = gateway.breakers.get(forward.skin.id, target.upstream)
    headers = dict(forward.headers)
    if route.policy != "content":
        _add_jar(headers, session.data.jars.get(target.origin))
    length: int | None = None
    if forward.stream is not None and (declared := incoming.headers.get("content-length", "")).isdigit():
        length = int(declared)
    if route.binary and (encoding := incoming.headers.get("accept-encoding")):
        headers["accept-encoding"] = encoding
    slot = (forward.skin.id, session.id, route.name) if route.policy == "exclusive" else None
    if slot is not None and not gateway.claim(slot):
        return error_answer(409, "IN_PROGRESS", "request already in progress", ctx)
    # No end-to-end deadline here: an upload takes as long as the player's line needs;
    # the connect and per-read timeouts still hold. Never retried (the body is gone).
    failure: Outcome | None = None
    started = time.perf_counter()
    try:
        if not breaker.allow():
            failure = Outcome(Reply(503, {}, b""), None, "open", breaker.retry_after())
        else:
            body = forward.stream if forward.stream is not None else forward.body
            timeouts = gateway.policies[route.policy].timeouts
            with gateway.tracing.upstream(route.name, route.method, target.upstream, headers):
                answer = await target.transport.stream(route.method, target.target, headers, body, timeouts, length)
    except BodyTooLarge:
        breaker.abandon()
        return error_answer(413, "TOO_LARGE", "Request body too large", ctx)
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
        ctx.upstream_ms += (time.perf_counter() - started) * 1000
        if slot is not None:
            gateway.release(slot)
    if failure is not None:
        if failure.error != "open":
            breaker.failure(failure.error or "error")
        return _upstream_error(failure, ctx)
    status = answer.status
    if status >= 500 and status != 501:
        breaker.failure(f"status {status}")
    else:
        breaker.success()
    ctx.upstream_status = status
    if status >= 500 and status != 501:
        await answer.aclose()
        return _platform_failure(status, route.policy == "exclusive", ctx)
    if route.policy != "content" and _keep_cookies(session, target.origin, answer):
        await gateway.sessions.save(forward.skin.id, session, forward.address)
    headers_out = [
        (name.encode("latin-1"), value.encode("latin-1"))
        for name, value in answer.headers
        if name in STREAMED_RESPONSE_HEADERS
    ]
    outgoing = Outgoing(status, headers_out, chunks=answer.chunks(), close=answer.aclose)
    _finish(gateway, incoming, outgoing, session, ctx)
    return outgoing


def _platform_failure(status: int, exclusive: bool, ctx: RequestContext) -> Outgoing:
    """The platform's own 5xx, told in the common error JSON: a 500 from here would read as the
    gateway failing, and the platform's error page is no use to a player."""
    if status == 503:
        return error_answer(503, "UPSTREAM_UNAVAILABLE", "The platform is not answering, please try again", ctx)
    if status == 504:
        return error_answer(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    if exclusive:
        return error_answer(502, "UPSTREAM_FAILED", "The platform failed this request; check before retrying", ctx)
    return error_answer(502, "UPSTREAM_ERROR", "The platform failed this request", ctx)


def _reply_answer(
    gateway: Gateway, incoming: Incoming, reply: Reply, session: Session | None, ctx: RequestContext
) -> Outgoing:
    if reply.status >= 500 and reply.status != 501:
        route = ROUTES_BY_NAME.get(ctx.route or "")
        failure = _platform_failure(reply.status, route is not None and route.policy == "exclusive", ctx)
        if "retry-after" in reply.headers:
            failure.headers.append((b"retry-after", reply.headers["retry-after"].encode("latin-1")))
        _finish(gateway, incoming, failure, session, ctx)
        return failure
    headers = _header_list(reply.headers)
    if "content-type" not in reply.headers:
        headers.append((b"content-type", b"application/json"))
    outgoing = Outgoing(reply.status, headers, reply.body)
    _finish(gateway, incoming, outgoing, session, ctx)
    return outgoing


def _finish(gateway: Gateway, incoming: Incoming, outgoing: Outgoing, session: Session | None,
            ctx: RequestContext) -> None:  # fmt: skip
    """The request id, and the browser's session and XSRF cookies where they change."""
    if outgoing.header("x-request-id") is None:
        outgoing.headers.append((b"x-request-id", ctx.request_id.encode("latin-1")))
    if session is not None:
        given = incoming.cookie
        for cookie in gateway.browser_cookies(session, given(XSRF_COOKIE), given(gateway.device_cookie)):
            outgoing.headers.append(cookie.to_encoded_header())


def _header_list(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]


def _returned_headers(headers: list[tuple[str, str]], allowed: frozenset[str]) -> dict[str, str]:
    returned: dict[str, str] = {}
    for name, value in headers:
        if name in allowed and name not in returned:
            returned[name] = value
    return returned


def _add_jar(headers: dict[str, str], jar: dict[str, str] | None) -> None:
    if not jar:
        return
    headers["cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
    token = jar.get(XSRF_COOKIE)
    if token:
        headers[UPSTREAM_XSRF_HEADER] = token


def _keep_cookies(session: Session, origin: str, answer: Answer) -> bool:
    """Upstream cookies go to the session's jar for that origin, never to the browser."""
    set_cookies = answer.header_values("set-cookie")
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
