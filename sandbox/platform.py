"""How a sandbox handler meets the wire: the `Call` it receives and the registry that binds
each handler to its catalogue route, so the sandbox cannot drift from the contracts.

Transport rules, as the platform has them (docs/platform.md):
- `siteid` on every call; an unknown site answers HTTP 400 with an error body.
- `wsession` on authenticated calls; unknown or idle sessions answer HTTP 200 with
  `{"success": false, "code": "SESSION_EXPIRED"}`.
- An `XSRF-TOKEN` cookie is issued when missing; unsafe calls must echo it in
  `X-XSRF-TOKEN`, else HTTP 403.
"""

from __future__ import annotations

import asyncio
import hmac
import random
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
from litestar import Request, Response, route
from litestar.datastructures import Cookie
from litestar.handlers import HTTPRouteHandler

from contracts.base import SESSION_EXPIRED, FieldErrors, PlatformReply
from contracts.catalogue import ROUTES_BY_NAME, Route
from contracts.rules import FormRules, validate
from sandbox.state import Fault, PlatformState, Player, Session, Site

T = TypeVar("T")
XSRF_COOKIE = "XSRF-TOKEN"
XSRF_HEADER = "x-xsrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class Reject(Exception):
    """Raised by a handler to answer with a platform failure body."""

    def __init__(self, reply: PlatformReply, status: int = 200) -> None:
        self.reply = reply
        self.status = status


def failure(description: str, code: str | None = None, status: int = 200) -> Reject:
    return Reject(PlatformReply(success=False, description=description, code=code), status)


@dataclass
class Call:
    """One platform call as a handler sees it."""

    state: PlatformState
    site: Site
    route: Route
    request: Request[Any, Any, Any]
    raw: bytes
    path_params: Mapping[str, str]
    session: Session | None = None
    player_: Player | None = None
    extra_headers: dict[str, str] = field(default_factory=dict)

    @property
    def player(self) -> Player:
        if self.player_ is None:
            raise failure("Session expired", SESSION_EXPIRED)
        return self.player_

    @property
    def query(self) -> Mapping[str, str]:
        return {k: v for k, v in self.request.query_params.items()}

    def json(self) -> dict[str, Any]:
        """The body as a JSON object; an empty body is `{}`."""
        if not self.raw.strip():
            return {}
        try:
            data = msgspec.json.decode(self.raw)
        except msgspec.DecodeError:
            raise failure("Malformed JSON body", "BAD_REQUEST", 400) from None
        if not isinstance(data, dict):
            raise failure("Expected a JSON object", "BAD_REQUEST", 400)
        return data

    @property
    def base_url(self) -> str:
        """Where a browser reaches this sandbox (demo pages, payment pages, postbacks)."""
        return (self.state.public_url or str(self.request.base_url)).rstrip("/")

    def body(self, typ: type[T], rules: FormRules | None = None) -> T:
        """The body decoded as `typ`, after the validation `rules` (field-level messages)."""
        data = self.json()
        if rules is not None:
            check(rules, data)
        return convert(data, typ)


def convert(data: Any, typ: type[T]) -> T:
    """`data` as the contract type `typ`; a mismatch is the platform's validation failure."""
    try:
        return msgspec.convert(data, typ)
    except msgspec.ValidationError as exc:
        raise Reject(FieldErrors(success=False, code="VALIDATION", description=str(exc)), 200) from None


def check(rules: FormRules, data: Mapping[str, Any]) -> None:
    """Answers with the spec's messages when `data` breaks `rules`."""
    errors = validate(rules, data)
    if errors:
        first = next(iter(errors.values()))
        raise Reject(FieldErrors(success=False, code="VALIDATION", description=first, errors=errors))


Handler = Callable[[Call], Awaitable[Any]]


@dataclass
class Registry:
    """Catalogue route name -> sandbox handler."""

    handlers: dict[str, Handler] = field(default_factory=dict)

    def __call__(self, name: str) -> Callable[[Handler], Handler]:
        if name not in ROUTES_BY_NAME:
            raise KeyError(f"{name} is not a catalogue route")

        def bind(fn: Handler) -> Handler:
            self.handlers[name] = fn
            return fn

        return bind

    def route_handlers(self, state: PlatformState) -> list[HTTPRouteHandler]:
        return [_litestar_route(ROUTES_BY_NAME[name], fn, state) for name, fn in self.handlers.items()]


def _litestar_path(path: str) -> str:
    return re.sub(r"\{(\w+)\}", r"{\1:str}", path)


def _litestar_route(spec: Route, fn: Handler, state: PlatformState) -> HTTPRouteHandler:
    async def endpoint(request: Request[Any, Any, Any]) -> Response[Any]:
        return await answer(state, spec, fn, request)

    endpoint.__name__ = f"platform_{spec.name}"
    return route(_litestar_path(spec.path), http_method=[spec.method], name=spec.name)(endpoint)


async def answer(state: PlatformState, spec: Route, fn: Handler, request: Request[Any, Any, Any]) -> Response[Any]:
    """Runs one platform call through the transport rules, faults and the handler."""
    xsrf = request.cookies.get(XSRF_COOKIE)
    response = await _answer(state, spec, fn, request, xsrf)
    if not xsrf:
        response.cookies.append(Cookie(key=XSRF_COOKIE, value=secrets.token_urlsafe(24), path="/", httponly=False))
    return response


async def _answer(
    state: PlatformState, spec: Route, fn: Handler, request: Request[Any, Any, Any], xsrf: str | None
) -> Response[Any]:
    site = state.sites.get(request.headers.get("siteid", ""))
    if site is None:
        return _reply(PlatformReply(success=False, code="INVALID_SITE_ID", description="Unknown site id"), 400)
    if request.method in UNSAFE and not _xsrf_ok(xsrf, request.headers.get(XSRF_HEADER)):
        return _reply(PlatformReply(success=False, code="INVALID_XSRF_TOKEN", description="Invalid CSRF Token"), 403)
    state.calls[f"{site.site_id} {spec.name}"] += 1
    state.calls[spec.name] += 1
    # The call is read whole before any work, as a platform does: a caller that leaves while it
    # is being processed does not undo it (a withdrawal whose answer was lost still happened).
    raw = b"" if spec.multipart else await request.body()
    fault = state.faults.get(spec.name) or state.faults.get("*")
    if fault is not None:
        injected = await _inject(state, spec.name, fault)
        if injected is not None:
            return injected
        if fault.headers:
            response = await _call_handler(state, site, spec, fn, request, raw)
            response.headers.update(fault.headers)
            return response
    return await _call_handler(state, site, spec, fn, request, raw)


async def _call_handler(
    state: PlatformState, site: Site, spec: Route, fn: Handler, request: Request[Any, Any, Any], raw: bytes
) -> Response[Any]:
    token = request.path_params.get("wsession") or request.headers.get("wsession")
    session = state.find_session(site, token)
    player = site.player(session.login) if session else None
    if spec.auth and player is None:
        return _reply(PlatformReply(success=False, code=SESSION_EXPIRED, description="Session expired"))
    call = Call(state, site, spec, request, raw, request.path_params, session, player)
    try:
        result = await fn(call)
    except Reject as rejected:
        return _reply(rejected.reply, rejected.status)
    if isinstance(result, Response):
        return result
    response = _reply(result)
    response.headers.update(call.extra_headers)
    return response


def _xsrf_ok(cookie: str | None, header: str | None) -> bool:
    return bool(cookie) and bool(header) and hmac.compare_digest(str(cookie), str(header))


async def _inject(state: PlatformState, name: str, fault: Fault) -> Response[Any] | None:
    if fault.remaining is not None:
        fault.remaining -= 1
        if fault.remaining <= 0:
            state.faults = {k: v for k, v in state.faults.items() if v is not fault}
    if fault.latency_ms:
        await asyncio.sleep(fault.latency_ms / 1000)
    if fault.timeout:
        await asyncio.sleep(3600)
    if fault.body is not None:
        return Response(content=fault.body, status_code=fault.error_status, media_type=fault.body_type)
    if fault.session_expired:
        return _reply(PlatformReply(success=False, code=SESSION_EXPIRED, description="Session expired"))
    if fault.error_rate and random.random() < fault.error_rate:
        description = fault.description or f"injected fault on {name}"
        body = PlatformReply(success=False, code=fault.code, description=description)
        return _reply(body, fault.error_status)
    return None


def _reply(body: Any, status: int = 200) -> Response[Any]:
    return Response(content=msgspec.json.encode(body), status_code=status, media_type="application/json")
