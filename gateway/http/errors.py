"""The one error shape the gateway answers with, on every route: `{message, code, requestId}`.

`error()` builds it; the named answers below are the gateway's own words for what players meet
(the SPA translates them by code); the exception handlers give Litestar's routes the same.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, cast

import msgspec
import structlog
from litestar import Request
from litestar.exceptions import HTTPException
from litestar.types import ExceptionHandlersMap

from contracts.base import BffError
from gateway.http.asgi import Outgoing, RequestContext
from gateway.store import StoreUnavailable

log = structlog.get_logger("gateway.errors")
S = TypeVar("S", bound=msgspec.Struct)


def error(status: int, code: str, message: str, ctx: RequestContext, *extra: tuple[bytes, bytes]) -> Outgoing:
    body = msgspec.json.encode(BffError(message=message, code=code, requestId=ctx.request_id))
    return Outgoing.json(status, body, ctx, (b"cache-control", b"no-store"), *extra)


class FieldError(msgspec.Struct, frozen=True):
    """What is wrong with one field of a form: the code the UI translates, and words for anyone else."""

    field: str
    code: str
    message: str


def decoded_as(body: bytes, kind: type[S]) -> S | list[FieldError]:
    """A JSON body as `kind`, or the field error that says what is wrong with it (an empty body: `{}`)."""
    try:
        return msgspec.json.decode(body or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        field = str(exc).rpartition("$.")[2].rstrip("`").split(".")[0] or "body"
        return [FieldError(field, "INVALID", str(exc))]
    except msgspec.DecodeError:
        return [FieldError("body", "INVALID", "Send a JSON object")]


def invalid(ctx: RequestContext, errors: list[FieldError], message: str = "Some fields need fixing") -> Outgoing:
    """422 `INVALID`, with each field's error (`errors`)."""
    body = {"message": message, "code": "INVALID", "requestId": ctx.request_id, "errors": errors}
    return Outgoing.json(422, msgspec.json.encode(body), ctx, (b"cache-control", b"no-store"))


def rate_limited(wait: int, ctx: RequestContext) -> Outgoing:
    return error(
        429, "RATE_LIMITED", "Too many attempts, please wait and try again", ctx, (b"retry-after", str(wait).encode())
    )


def store_unavailable(ctx: RequestContext) -> Outgoing:
    return error(
        503, "STORE_UNAVAILABLE", "Service temporarily unavailable, please try again", ctx, (b"retry-after", b"1")
    )


def outcome_unknown(ctx: RequestContext) -> Outgoing:
    """A money or account call whose outcome nobody here can know: the player checks the history."""
    said = "The first attempt of this request was interrupted; check your history before retrying"
    return error(502, "OUTCOME_UNKNOWN", said, ctx)


def in_progress(ctx: RequestContext) -> Outgoing:
    return error(409, "IN_PROGRESS", "request already in progress", ctx)


def shutdown(ctx: RequestContext) -> Outgoing:
    """A request still waiting when the instance's drain time ran out: a money call's outcome is
    not known here (another instance, or the platform, may finish it), anything else may be retried."""
    if ctx.route_class == "exclusive":
        return outcome_unknown(ctx)
    return error(503, "SHUTTING_DOWN", "This server is restarting, please try again", ctx, (b"retry-after", b"1"))


class Unanswered(Protocol):
    """What the error JSON reads of a call the platform did not answer well
    (`gateway.state.outcome.Outcome`)."""

    @property
    def status(self) -> int: ...
    @property
    def headers(self) -> dict[str, str]: ...
    @property
    def failure(self) -> str | None: ...
    @property
    def retry_after(self) -> int | None: ...


def no_answer(outcome: Unanswered, exclusive: bool, ctx: RequestContext) -> Outgoing:
    """The platform gave no answer (`outcome.failure`), or a 5xx of its own: told in the common
    error JSON, since a 500 from here would read as the gateway failing and the platform's error
    page is no use to a player. A money call that may have gone out says to check first."""
    failure = outcome.failure
    if failure is None:
        wait = outcome.headers.get("retry-after")
        extra = [(b"retry-after", wait.encode("latin-1"))] if wait else []
        return _platform_failure(outcome.status, exclusive, ctx, *extra)
    if failure == "timeout":
        return error(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    if failure == "open":
        return error(
            503,
            "UPSTREAM_UNAVAILABLE",
            "The platform is not answering, please try again",
            ctx,
            (b"retry-after", str(outcome.retry_after or 1).encode()),
        )
    if failure == "unreachable":
        return error(502, "UPSTREAM_UNREACHABLE", "The platform cannot be reached", ctx)
    if failure == "lost":
        return outcome_unknown(ctx)
    if failure == "contract":
        if exclusive:  # the platform did answer: what it did is in the history, not in this answer
            return error(502, "UPSTREAM_FAILED", "The platform's answer could not be read; check before retrying", ctx)
        return error(502, "UPSTREAM_CONTRACT", "The platform's answer could not be read", ctx)
    return error(502, "UPSTREAM_FAILED", "The platform's answer was lost; check before retrying", ctx)


def _platform_failure(status: int, exclusive: bool, ctx: RequestContext, *extra: tuple[bytes, bytes]) -> Outgoing:
    if status == 503:
        return error(503, "UPSTREAM_UNAVAILABLE", "The platform is not answering, please try again", ctx, *extra)
    if status == 504:
        return error(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx, *extra)
    if exclusive:
        return error(502, "UPSTREAM_FAILED", "The platform failed this request; check before retrying", ctx, *extra)
    return error(502, "UPSTREAM_ERROR", "The platform failed this request", ctx, *extra)


# Litestar's words when the client went away while its body was being read: a 500 to Litestar,
# but nothing failed here and nobody is listening; logged as nginx's 499 (client closed request).
CLIENT_GONE = "client disconnected prematurely"
_CODES = {
    400: "BAD_REQUEST",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "TOO_LARGE",
    429: "RATE_LIMITED",
}


def http_exception_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if exc.status_code == 500 and exc.detail == CLIENT_GONE:
        return error(499, "CLIENT_CLOSED", "The client closed the connection", ctx)
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in (exc.headers or {}).items()]
    return error(exc.status_code, _CODES.get(exc.status_code, "ERROR"), str(exc.detail), ctx, *headers)


def store_unavailable_handler(request: Request[Any, Any, Any], exc: Exception) -> Outgoing:
    """Any handler that meets the store down answers as the proxy does: 503, try again."""
    return store_unavailable(RequestContext.of(request.scope))


def internal_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    log.error("unhandled error", error=type(exc).__name__, exc_info=exc)
    return error(500, "INTERNAL", "Something went wrong", ctx)


# Each answers with the common error JSON, an `Outgoing`, which Litestar sends as the ASGI app it is.
EXCEPTION_HANDLERS = cast(
    "ExceptionHandlersMap",
    {
        HTTPException: http_exception_handler,
        StoreUnavailable: store_unavailable_handler,
        Exception: internal_error_handler,
    },
)
