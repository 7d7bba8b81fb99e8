"""Logging: structlog, JSON when not on a terminal, readable on one; one access line per
request; secrets redacted wherever they would appear.

Litestar's LoggingMiddleware is not used: it reads request bodies (which breaks
streaming) and logs headers and cookies. The access line is written by the front door
(`gateway.edge.entry`) from the request's context.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import MutableMapping
from contextvars import ContextVar
from typing import Any, Protocol

import msgspec
import structlog

from contracts.catalogue import ROUTES
from gateway.config.settings import Settings
from gateway.http.asgi import RequestContext
from gateway.monitoring.series import Series
from gateway.runtime.metrics import Metrics

SECRET_KEYS = re.compile(
    r"pass(word)?|session|wsession|cookie|token|secret|authorization|ssn|cbu|cuit|bankaccount|accountnumber|"
    r"personalnumber|ifsc|upi",
    re.IGNORECASE,
)
REDACTED = "[redacted]"
SIGN_INS = frozenset(route.name for route in ROUTES if route.session == "starts" and route.limit == "login-like")
"""The routes a player signs in with (counted apart: `bff_sign_ins_total`)."""


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


# The access line's keys, fixed by `Access.record` and the chain's own processors.
ACCESS_KEYS = frozenset(
    {
        "event",
        "level",
        "timestamp",
        "method",
        "path",
        "status",
        "ms",
        "skin",
        "route",
        "upstream_ms",
        "upstream_status",
        "dedup",
        "request_id",
    }
)
_ACCESS_CLEAN = frozenset(key for key in ACCESS_KEYS if not _names_secret(key))


def redact_access(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """`redact` for the access line: its keys are checked once, here, so a line with only those
    keys passes on one set comparison (the generic walk was a tenth of a cached answer's Python
    time); a line with any other key is walked in full."""
    if event.keys() <= _ACCESS_CLEAN:
        return event
    return redact(_, __, event)


_json = msgspec.json.Encoder(enc_hook=repr)


def _render_json(_: Any, __: str, event: MutableMapping[str, Any]) -> bytes:
    """One JSON line (msgspec: several times faster than structlog's json.dumps renderer)."""
    return _json.encode(event)


def _render_json_text(_: Any, __: str, event: MutableMapping[str, Any]) -> str:
    return _json.encode(event).decode()


def _console(settings: Settings) -> bool:
    return settings.log_format == "console" or (settings.log_format == "auto" and sys.stdout.isatty())


def _level(settings: Settings) -> int:
    return logging.getLevelNamesMapping().get(settings.log_level.upper(), logging.INFO)


def _factory(settings: Settings) -> Any:
    if _console(settings):
        return structlog.PrintLoggerFactory(sys.stdout)
    return structlog.BytesLoggerFactory(sys.stdout.buffer)


_STAMP = structlog.processors.TimeStamper(fmt="iso", utc=True)

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The id of the request being handled, set once per request by the front door: one plain
context variable (structlog's `bind_contextvars` and its unbind cost a tenth of a content hit's
own work: docs/decisions.md) that `_with_request_id` adds to every line written meanwhile."""


def _with_request_id(_: Any, __: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    request_id = REQUEST_ID.get()
    if request_id is not None:
        event.setdefault("request_id", request_id)
    return event


def configure_logging(settings: Settings) -> None:
    """One format for every line of the process: the gateway's own (structlog) and those of the
    standard library's loggers (uvicorn, Litestar, asyncio, redis), routed through structlog's
    `ProcessorFormatter`; JSON in production, readable on a terminal. Every chain redacts, every
    error keeps its traceback, and a line written while a request is handled carries its id
    (bound by the front door in the context variables). Configured once per process by the app
    factory (structlog's configuration and the root logger are global)."""
    console, level = _console(settings), _level(settings)
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        _with_request_id,
        structlog.processors.add_log_level,
        _STAMP,
    ]
    structlog.configure(
        processors=[
            *shared,
            structlog.processors.format_exc_info,
            redact,
            structlog.dev.ConsoleRenderer() if console else _render_json,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_factory(settings),
        # Not cached: these lines are rare (the access line has its own chain), and a cached
        # logger would keep writing where the logging was first configured.
        cache_logger_on_first_use=False,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name, structlog.stdlib.ExtraAdder()],
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            redact,
            structlog.dev.ConsoleRenderer() if console else _render_json_text,
        ],
    )
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Servers and frameworks that set up their own handlers (uvicorn's default config, Litestar's
    # queue) would write their own format: their lines go to the root's instead.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "litestar", "asyncio"):
        framework = logging.getLogger(name)
        framework.handlers.clear()
        framework.propagate = True
    # httpx logs every URL at INFO, and launch paths carry the platform's session id.
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def access_logger(settings: Settings) -> Any:
    """The access line's own structlog chain: its keys are fixed (paths, never queries or
    bodies) and the request id is one of them, so it skips the context variables; with them,
    logging took a fifth of a proxied call's Python time. It still redacts."""
    renderer = structlog.dev.ConsoleRenderer() if _console(settings) else _render_json
    return structlog.wrap_logger(
        _factory(settings)(),
        processors=[structlog.processors.add_log_level, _STAMP, redact_access, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(_level(settings)),
        cache_logger_on_first_use=True,
    )


class SideCounts(Protocol):
    """A canary's figures per side (`gateway.canary.figures.CanaryFigures`)."""

    def add(self, ctx: RequestContext, status: int, seconds: float) -> None: ...


class Access:
    """The access line, the metrics and the console's figures (`Series`, a canary's) of one request
    (skin, route, status, ms, upstream ms, dedup, request id), written by the front door for every request."""

    def __init__(
        self, metrics: Metrics, settings: Settings, series: Series, canaries: SideCounts | None = None
    ) -> None:
        self.metrics = metrics
        self.log = access_logger(settings)
        self.series = series
        self.canaries = canaries
        """A canary's figures per side (`gateway.canary.figures`), for requests its routing gave one."""

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
        upstream_s = ctx.upstream_ms / 1000 if ctx.upstream_status is not None else None
        metrics.count_request(ctx.skin, ctx.route_class, status, seconds, upstream_s, ctx.cache, ctx.dedup, ctx.refusal)
        if ctx.skin is not None:
            if ctx.route in SIGN_INS:
                outcome = "refused" if ctx.refusal is not None else "accepted" if status < 400 else "failed"
                metrics.sign_in(ctx.skin, outcome)
            self.series.add(ctx.skin, status, seconds, ctx.cache, ctx.refusal)
            if ctx.canary is not None and self.canaries is not None:
                self.canaries.add(ctx, status, seconds)
