"""The one error shape the gateway answers with: `{message, code, requestId}`."""

from __future__ import annotations

from typing import Any

import msgspec
import structlog
from litestar import Request, Response
from litestar.exceptions import HTTPException

from contracts.base import BffError
from gateway.exchange import Outgoing, json_headers
from gateway.runtime import RequestContext

log = structlog.get_logger("gateway.errors")


def error_body(code: str, message: str, ctx: RequestContext) -> bytes:
    return msgspec.json.encode(BffError(message=message, code=code, requestId=ctx.request_id))


def error_answer(status: int, code: str, message: str, ctx: RequestContext) -> Outgoing:
    """The error shape on the proxied path (`gateway.exchange`)."""
    headers = json_headers(ctx.request_id, (b"cache-control", b"no-store"))
    return Outgoing(status, headers, error_body(code, message, ctx))


def error_response(status: int, code: str, message: str, ctx: RequestContext) -> Response[Any]:
    body = error_body(code, message, ctx)
    return Response(
        content=body,
        status_code=status,
        media_type="application/json",
        headers={"x-request-id": ctx.request_id, "cache-control": "no-store"},
    )


# Litestar's words when the client went away while its body was being read: a 500 to Litestar,
# but nothing failed here and nobody is listening; logged as nginx's 499 (client closed request).
CLIENT_GONE = "client disconnected prematurely"


def http_exception_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    ctx = RequestContext.of(request)
    if exc.status_code == 500 and exc.detail == CLIENT_GONE:
        return error_response(499, "CLIENT_CLOSED", "The client closed the connection", ctx)
    code = {400: "BAD_REQUEST", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
            413: "TOO_LARGE", 429: "RATE_LIMITED"}.get(exc.status_code, "ERROR")  # fmt: skip
    response = error_response(exc.status_code, code, str(exc.detail), ctx)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


STORE_UNAVAILABLE = ("STORE_UNAVAILABLE", "Service temporarily unavailable, please try again")


def store_unavailable(ctx: RequestContext) -> Response[Any]:
    response = error_response(503, *STORE_UNAVAILABLE, ctx)
    response.headers["retry-after"] = "1"
    return response


def store_unavailable_answer(ctx: RequestContext) -> Outgoing:
    """`store_unavailable` on the proxied path."""
    answer = error_answer(503, *STORE_UNAVAILABLE, ctx)
    answer.headers.append((b"retry-after", b"1"))
    return answer


def outcome_unknown_answer(ctx: RequestContext) -> Outgoing:
    """A money or account call whose outcome nobody here can know: the player checks the history."""
    return error_answer(
        502, "OUTCOME_UNKNOWN", "The first attempt of this request was interrupted; check your history before retrying",
        ctx,
    )  # fmt: skip


def shutdown_answer(ctx: RequestContext) -> Outgoing:
    """A request still waiting when the instance's drain time ran out: a money call's outcome is
    not known here (another instance, or the platform, may finish it), anything else may be retried."""
    if ctx.route_class == "exclusive":
        return outcome_unknown_answer(ctx)
    answer = error_answer(503, "SHUTTING_DOWN", "This server is restarting, please try again", ctx)
    answer.headers.append((b"retry-after", b"1"))
    return answer


def store_unavailable_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Any handler that meets the store down answers as the proxy does: 503, try again."""
    return store_unavailable(RequestContext.of(request))


def internal_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    ctx = RequestContext.of(request)
    log.error("unhandled error", request_id=ctx.request_id, error=type(exc).__name__)
    return error_response(500, "INTERNAL", "Something went wrong", ctx)
