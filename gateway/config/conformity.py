"""Whether a base URL speaks the platform: its documented calls that need no player and change
nothing (`contracts.catalogue.CHECKS`, each with the example it is made with), made now, and each
answer held to its route's contract (`contracts.conformance.breach`) as the product reads it.

A call keeps its contract when it answers 2xx (a route that needs a player: the platform's own
`SESSION_EXPIRED` refusal), as JSON, in an encoding it was asked for that decodes, and with every
field the product reads. `python -m gateway check-upstream`, the console's change preview and its
apply, and each upstream's health on the overview all ask this module.

httpx rather than the gateway's pool, as `gateway.config.probe` does (this layer is below the
upstream's): the calls are few and concurrent, each within its own timeout, and nothing here
raises. Reasons name the call and the place, never a value, and a URL is said without its
credentials or query.
"""

from __future__ import annotations

import asyncio
import ssl
import time
import zlib
from collections.abc import Sequence
from urllib.parse import urlsplit

import httpx
import msgspec

from contracts.base import SESSION_EXPIRED, PlatformReply
from contracts.catalogue import CHECKS, HEALTH, Route, Upstream
from contracts.conformance import breach, media_type
from gateway.config.health_checks import HealthCheck, documented_route
from gateway.config.probe import failure

MAX_BODY = 8 * 1024 * 1024
"""A documented answer is far smaller; past this the call fails rather than the check swelling."""
ENCODINGS = ("gzip", "deflate")
"""What the check asks for (`accept-encoding`), as the gateway's calls do."""
USER_AGENT = "casino-bff-check"
_reply: msgspec.json.Decoder[PlatformReply] = msgspec.json.Decoder(PlatformReply)


class Called(msgspec.Struct, rename="camel"):
    """One documented call and what became of it."""

    name: str
    path: str
    """The path and example query, as made (relative to the base URL)."""
    ok: bool
    status: int | None = None
    why: str | None = None
    """Why it does not keep its contract (None when it does)."""
    latency_ms: float | None = None


class Conformity(msgspec.Struct, rename="camel"):
    """Every documented call of one upstream, made on one base URL."""

    url: str
    """The base URL, without credentials, query or fragment."""
    upstream: str
    ok: bool
    valid: int
    total: int
    summary: str
    """`speaks the platform: 9/9 documented calls valid`, or the first call that failed and why."""
    calls: list[Called]


def shown(url: str) -> str:
    """A URL as it may be said: scheme, host, port and path only (no user, password or query)."""
    try:
        parts = urlsplit(url)
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(not a URL)"
    return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}"


def summary(valid: int, total: int, calls: Sequence[Called]) -> str:
    failed = next((call for call in calls if not call.ok), None)
    if failed is None:
        return f"speaks the platform: {valid}/{total} documented calls valid"
    return f"does not speak the platform: {valid}/{total} documented calls valid; {failed.name}: {failed.why}"


async def conformity(
    url: str, upstream: Upstream, site_id: str, *, within_s: float = 5.0, context: ssl.SSLContext | None = None
) -> Conformity:
    """Every documented call of `upstream` that needs no player, made on base URL `url` for site
    `site_id`, concurrently, each within `within_s`."""
    routes = CHECKS[upstream]
    async with client(within_s, context) as http:
        calls = list(await asyncio.gather(*(check_call(http, url, route, site_id, within_s) for route in routes)))
    valid = sum(1 for call in calls if call.ok)
    ok = valid == len(calls)
    return Conformity(shown(url), upstream, ok, valid, len(calls), summary(valid, len(calls), calls), calls)


def client(within_s: float, context: ssl.SSLContext | None = None) -> httpx.AsyncClient:
    """A client for `check_call` calls (an upstream's health makes its rounds with one): the trust the
    probe has; encodings undone here (`aiter_raw`), so one an answer claims must decode."""
    verify = context if context is not None else ssl.create_default_context()
    return httpx.AsyncClient(verify=verify, timeout=within_s, trust_env=False, follow_redirects=False)


async def check_call(
    client: httpx.AsyncClient, base: str, route: Route, site_id: str, within_s: float, path: str | None = None
) -> Called:
    """One documented call made on `base` and held to `route`'s contract; never raises."""
    assert route.check is not None
    target = path or route.path + (f"?{route.check.query}" if route.check.query else "")
    started = time.perf_counter()
    try:
        async with asyncio.timeout(within_s + 1):
            status, kind, body = await _made(client, base.rstrip("/") + target, route, site_id)
    except (TimeoutError, httpx.TimeoutException):
        return Called(route.name, target, False, why=f"no answer within {within_s:g} s")
    except httpx.HTTPError as exc:
        return Called(route.name, target, False, why=failure(exc))
    except _UnreadableAnswer as refused:
        return Called(route.name, target, False, refused.status, str(refused), _since(started))
    except httpx.InvalidURL:
        return Called(route.name, target, False, why="not a URL")
    why = _why(route, status, kind, body)
    return Called(route.name, target, why is None, status, why, _since(started))


async def healthy(
    client: httpx.AsyncClient, base: str, upstream: Upstream, site_id: str, check: HealthCheck | None, within_s: float
) -> Called:
    """An upstream's health: the skins file's check for it (a documented call held to its contract,
    or any other path and the status it must answer), else its default documented call."""
    if check is None:
        return await check_call(client, base, HEALTH[upstream], site_id, within_s)
    route = documented_route(check.path)
    if route is not None and route.check is not None:
        return await check_call(client, base, route, site_id, within_s, path=check.path)
    return await check_status(client, base, check, site_id, within_s)


async def check_status(
    client: httpx.AsyncClient, base: str, check: HealthCheck, site_id: str, within_s: float
) -> Called:
    """A GET of a path that is not a documented call: up when it answers the status expected."""
    started = time.perf_counter()
    headers = {"siteid": site_id, "user-agent": USER_AGENT}
    try:
        async with asyncio.timeout(within_s + 1):
            async with client.stream("GET", base.rstrip("/") + check.path, headers=headers) as answer:
                status = answer.status_code  # the body is not read: only its status is expected
    except (TimeoutError, httpx.TimeoutException):
        return Called(check.path, check.path, False, why=f"no answer within {within_s:g} s")
    except httpx.HTTPError as exc:
        return Called(check.path, check.path, False, why=failure(exc))
    ok = status == check.status
    why = None if ok else f"HTTP {status}, not {check.status}"
    return Called(check.path, check.path, ok, status, why, _since(started))


class _UnreadableAnswer(Exception):
    """An answer that cannot be read (its encoding, its size), with its status."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


async def _made(client: httpx.AsyncClient, url: str, route: Route, site_id: str) -> tuple[int, str, bytes]:
    """(status, content type, decoded body): a POST the platform refuses for its XSRF token
    (403 setting one) goes again once with it, as the gateway's own calls do."""
    status, kind, body, token = await _once(client, url, route, site_id, None)
    if status == 403 and token and route.method != "GET":
        status, kind, body, _ = await _once(client, url, route, site_id, token)
    return status, kind, body


async def _once(
    client: httpx.AsyncClient, url: str, route: Route, site_id: str, xsrf: str | None
) -> tuple[int, str, bytes, str | None]:
    assert route.check is not None
    headers = {
        "siteid": site_id,
        "accept": "application/json",
        "accept-encoding": ", ".join(ENCODINGS),
        "user-agent": USER_AGENT,
    }
    content = None
    if route.method != "GET":
        headers["content-type"] = "application/json"
        content = route.check.body.encode()
    if xsrf:
        headers["x-xsrf-token"], headers["cookie"] = xsrf, f"XSRF-TOKEN={xsrf}"
    async with client.stream(route.method, url, headers=headers, content=content) as answer:
        raw = bytearray()
        async for chunk in answer.aiter_raw():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise _UnreadableAnswer(answer.status_code, f"answer over {MAX_BODY // 1024 // 1024} MB")
        body = _decoded(answer.status_code, answer.headers.get("content-encoding", ""), bytes(raw))
        return answer.status_code, answer.headers.get("content-type", ""), body, answer.cookies.get("XSRF-TOKEN")


def _decoded(status: int, encoding: str, raw: bytes) -> bytes:
    """The body with the encodings it claims undone (last applied, first undone)."""
    body = raw
    for coding in reversed([c.strip().lower() for c in encoding.split(",") if c.strip()]):
        if coding == "identity":
            continue
        if coding not in ENCODINGS:
            raise _UnreadableAnswer(status, f"content-encoding {coding}, which was not asked for")
        try:
            body = _inflate(coding, body)
        except zlib.error:
            raise _UnreadableAnswer(status, f"claims content-encoding {coding} but does not decode") from None
        if len(body) > MAX_BODY:
            raise _UnreadableAnswer(status, f"answer over {MAX_BODY // 1024 // 1024} MB")
    return body


def _inflate(coding: str, body: bytes) -> bytes:
    if coding == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body, MAX_BODY + 1)
    try:  # deflate: the zlib format, as it should be; some servers send it raw
        return zlib.decompressobj().decompress(body, MAX_BODY + 1)
    except zlib.error:
        return zlib.decompressobj(-zlib.MAX_WBITS).decompress(body, MAX_BODY + 1)


def _why(route: Route, status: int, kind: str, body: bytes) -> str | None:
    """Why this answer of the documented call breaks its contract (None: it keeps it)."""
    media = media_type(kind)
    if not 200 <= status < 300:
        return f"HTTP {status}" + (f" ({media})" if media else "")
    if media != "application/json" and not media.endswith("+json"):
        return f"answered {media or 'no content type'}, not JSON"
    broken = breach(route, status, kind, body)
    if broken is not None:
        return broken
    assert route.check is not None
    if route.check.refused:
        try:
            reply = _reply.decode(body)
        except msgspec.MsgspecError:
            return f"without a player it did not answer the platform's {SESSION_EXPIRED} refusal"
        if reply.success is not False or reply.code != SESSION_EXPIRED:
            return f"without a player it answered success={reply.success}, code={reply.code}, not {SESSION_EXPIRED}"
    return None


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
