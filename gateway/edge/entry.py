"""The front door: every HTTP request comes in here once. Its context (request id, set in the
log's context variable `observability.REQUEST_ID`) is made here, its access line and metrics are written here, and while
the instance drains its answer carries `Connection: close`. Then it goes one of two ways:

- the proxied prefixes (`/api/`, `/capi/`, `/sbapi/`, `/rest/`) to `gateway.pipeline`, on the
  raw ASGI exchange: every balance poll is one, and Litestar's routing, `Request` and `Response`
  cost more per call than the pipeline's own work (docs/decisions.md, "The proxied path skips
  Litestar's request and response");
- everything else (`/bff/*`, the SPA) to the Litestar app, whose handlers answer with the same
  `Outgoing` and error JSON.
"""

from __future__ import annotations

import asyncio
from typing import Any, Generic, Protocol, TypeVar, cast

import httpx
import structlog
from litestar import Litestar
from litestar.types import Send

from contracts.catalogue import PREFIXES
from gateway.http.asgi import ClientGone, Incoming, RequestContext
from gateway.http.errors import error, shutdown, store_unavailable
from gateway.http.outgoing import Outgoing
from gateway.monitoring.observability import REQUEST_ID, Access
from gateway.pipeline import Pipeline
from gateway.pipeline.exchange import Exchange
from gateway.runtime.lifecycle import Lifecycle
from gateway.runtime.tracing import Tracing
from gateway.store import StoreUnavailable

PROXIED_PREFIXES = tuple(PREFIXES)
log = structlog.get_logger("gateway")


class Parts(Protocol):
    """What the front door reads of the parts it was made of (`gateway.parts.Gateway`)."""

    @property
    def lifecycle(self) -> Lifecycle: ...


P = TypeVar("P", bound=Parts)


class FrontDoor(Generic[P]):
    """The gateway's ASGI app (`create_app` builds it); `gateway` holds the parts it was made of
    (a `gateway.parts.Gateway`, for the CLI, the admin listener and tests)."""

    def __init__(self, site: Litestar, pipeline: Pipeline, access: Access, gateway: P, tracing: Tracing) -> None:
        self.site = site
        self.pipeline = pipeline
        self.access = access
        self.gateway = gateway
        self.lifecycle = gateway.lifecycle
        self._serve = tracing.wrap(self._request)  # spans around every request, proxied or not

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # lifespan
            await self.site(scope, receive, send)
            return
        await self._serve(scope, receive, send)

    async def _request(self, scope: Any, receive: Any, send: Any) -> None:
        incoming, ctx = Incoming.enter(scope, receive)
        bound = REQUEST_ID.set(ctx.request_id)
        status = 500
        try:
            if scope["path"].startswith(PROXIED_PREFIXES):
                status = await self._proxy(incoming, ctx, send)
            else:
                with incoming.kept_in(scope):
                    status = await self._site(scope, receive, send)
        finally:
            self.access.record(incoming.method, incoming.path, status, ctx)
            REQUEST_ID.reset(bound)

    async def _proxy(self, incoming: Incoming, ctx: RequestContext, send: Any) -> int:
        try:
            answer = await self.pipeline.run(Exchange(incoming, ctx))
        except ClientGone:
            return 499  # nginx's "client closed request": nobody is left to answer
        except StoreUnavailable:
            answer = store_unavailable(ctx)
        except asyncio.CancelledError:
            if not self.lifecycle.draining:
                raise
            answer = shutdown(ctx)  # the drain's time ran out while this one waited
        except Exception as exc:
            log.error("unhandled error", error=type(exc).__name__, exc_info=exc)
            answer = error(500, "INTERNAL", "Something went wrong", ctx)
        self._closing(answer)
        try:
            await answer.send(send)
        except httpx.TransportError as exc:  # the platform failed mid-stream: the player's copy is cut
            log.warning("upstream.stream_broken", error=type(exc).__name__)
        return answer.status

    async def _site(self, scope: Any, receive: Any, send: Any) -> int:
        status = 500

        async def relay(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if self.lifecycle.draining:
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        await self.site(scope, receive, cast("Send", relay))
        return status

    def _closing(self, answer: Outgoing) -> None:
        if self.lifecycle.draining:
            answer.headers.append((b"connection", b"close"))
