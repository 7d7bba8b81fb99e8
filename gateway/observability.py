"""Logging: structlog, JSON when not on a terminal, readable on one; one access line per
request; secrets redacted wherever they would appear.

Litestar's LoggingMiddleware is not used: it reads request bodies (which breaks
streaming) and logs headers and cookies. The access line here is written by a small
ASGI middleware from the request's context.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import MutableMapping
from typing import Any, cast

import msgspec
import structlog
from litestar.enums import ScopeType
from litestar.types import ASGIApp, HTTPScope, Message, Receive, Scope, Send

from gateway.runtime import CONTEXT_KEY, Gateway, RequestContext
from gateway.security import request_id
from gateway.settings import Settings

SECRET_KEYS = re.compile(
    r"pass(word)?|session|wsession|cookie|token|secret|authorization|ssn|cbu|cuit|bankaccount|accountnumber|"
    r"personalnumber|ifsc|upi",
    re.IGNORECASE,
)
REDACTED = "[redacted]"


def redact(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """Replaces the value of any key that names a secret, at any depth."""
    for key, value in list(event.items()):
        if key != "event" and _names_secret(key):
            event[key] = REDACTED
        elif isinstance(value, dict):
            event[key] = redact(None, "", dict(value))
    return event


_SECRET_MEMO: dict[str, bool] = {}


def _names_secret(key: str) -> bool:
    """SECRET_KEYS.search, remembered per key: log lines repeat the same few keys."""
    found = _SECRET_MEMO.get(key)
    if found is None:
        found = SECRET_KEYS.search(key) is not None
        if len(_SECRET_MEMO) < 10_000:  # keys are names from the code, but stay bounded
            _SECRET_MEMO[key] = found
    return found


_json = msgspec.json.Encoder(enc_hook=repr)


def _render_json(_: Any, __: str, event: MutableMapping[str, Any]) -> bytes:
    """One JSON line (msgspec: several times faster than structlog's json.dumps renderer)."""
    return _json.encode(event)


def _output(settings: Settings) -> tuple[Any, Any, int]:
    """Renderer, logger factory and level: JSON lines, or readable ones on a terminal."""
    level = logging.getLevelNamesMapping().get(settings.log_level.upper(), logging.INFO)
    console = settings.log_format == "console" or (settings.log_format == "auto" and sys.stdout.isatty())
    renderer: Any = structlog.dev.ConsoleRenderer() if console else _render_json
    factory: Any = (
        structlog.PrintLoggerFactory(sys.stdout) if console else structlog.BytesLoggerFactory(sys.stdout.buffer)
    )
    return renderer, factory, level


def configure_logging(settings: Settings) -> None:
    """Configured once per process by the app factory (structlog's configuration is global)."""
    renderer, factory, level = _output(settings)
    # httpx logs every upstream URL at INFO, and launch paths carry the platform's session id.
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            redact,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )


def access_logger(settings: Settings) -> Any:
    """The access line's own structlog chain. Its keys are fixed and name no secret (paths, never
    queries or bodies), and it carries no context variables, so it skips those processors:
    with them, logging took a fifth of a proxied call's Python time."""
    renderer, factory, level = _output(settings)
    return structlog.wrap_logger(
        factory(),
        processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True),
                    renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        cache_logger_on_first_use=True,
    )  # fmt: skip


class Access:
    """The access line and the metrics of one request (skin, route, status, ms, upstream ms,
    dedup, request id)."""

    def __init__(self, gateway: Gateway) -> None:
        self.metrics = gateway.metrics
        self.log = access_logger(gateway.settings)

    def record(self, method: str, path: str, status: int, ctx: RequestContext) -> None:
        seconds = time.perf_counter() - ctx.started
        if ctx.route_class == "other":
            ctx.route_class = "bff" if path.startswith("/bff/") else "spa"
        self._count(ctx, status, seconds)
        self.log.info(
            "request",
            method=method,
            path=path,
            status=status,
            ms=round(seconds * 1000, 2),
            skin=ctx.skin,
            route=ctx.route,
            upstream_ms=round(ctx.upstream_ms, 2) if ctx.upstream_status is not None else None,
            upstream_status=ctx.upstream_status,
            dedup=ctx.dedup,
            request_id=ctx.request_id,
        )

    def _count(self, ctx: RequestContext, status: int, seconds: float) -> None:
        metrics = self.metrics
        metrics.request(ctx.skin, ctx.route_class, status, seconds)
        if ctx.upstream_status is not None and ctx.skin is not None:
            metrics.upstream(ctx.skin, ctx.route_class, ctx.upstream_ms / 1000)
        if ctx.cache is not None:
            metrics.cache_answer(ctx.skin, ctx.cache)
        if ctx.dedup in ("leader", "follower", "replayed"):
            metrics.dedup_role(ctx.dedup)


class AccessLog:
    """ASGI middleware of the Litestar routes (`/bff/*`, the SPA): one access line per HTTP
    request, its metrics, and `connection: close` on answers while draining. (The proxied
    prefixes record theirs in `gateway.app`'s proxied path.)"""

    def __init__(self, app: ASGIApp, gateway: Gateway) -> None:
        self.app = app
        self.gateway = gateway
        self.access = Access(gateway)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        http: HTTPScope = scope
        ctx = RequestContext(request_id(_header(http, b"x-request-id")))
        cast("dict[str, Any]", http).setdefault("state", {})[CONTEXT_KEY] = ctx
        status = 500
        gateway = self.gateway

        async def observe(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if gateway.draining:
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        try:
            await self.app(scope, receive, observe)
        finally:
            self.access.record(http["method"], http["path"], status, ctx)


def _header(scope: HTTPScope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None
