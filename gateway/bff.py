"""The gateway's own endpoints for the SPA and for operators: `/bff/*`."""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
from typing import Annotated, Any

import httpx
import msgspec
import structlog
from litestar import Request, Response, get, post
from litestar.params import JSONBody, PathParameter, QueryParameter

from contracts.catalogue import ROUTES_BY_NAME
from contracts.openapi import catalogue_openapi
from gateway.errors import error_response
from gateway.exchange import Incoming
from gateway.proxy import CircuitOpen, call_upstream, client_ip, refusal, upstream_headers
from gateway.ratelimit import address_key
from gateway.runtime import Gateway, RequestContext
from gateway.security import cross_site
from gateway.session import SessionData
from gateway.shared import StoreUnavailable

SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{8,128}$")
DEPOSIT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
PAY_METHOD = re.compile(r"^[A-Za-z0-9_]{0,32}$")
audit = structlog.get_logger("gateway.audit")
PAY_UNAVAILABLE = (
    "<!doctype html><meta charset=utf-8><title>Pago · Pagamento · Payment</title>"
    "<body style='font-family:sans-serif;background:#0d0f1a;color:#f3f4f8;padding:2rem'>"
    "<p>No pudimos abrir la página de pago. Cierra esta ventana y vuelve a intentarlo.</p>"
    "<p>Não foi possível abrir a página de pagamento. Feche esta janela e tente de novo.</p>"
    "<p>The payment page could not be opened. Close this window and try again.</p>"
)


class AdoptRequest(msgspec.Struct):
    sid: Annotated[str, msgspec.Meta(pattern=SESSION_ID.pattern)]


def _gateway(request: Request[Any, Any, Any]) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


@get("/bff/config", sync_to_thread=False)
def config(request: Request[Any, Any, Any]) -> Response[Any]:
    """The public part of the skin: one SPA build serves every skin."""
    gateway = _gateway(request)
    ctx = RequestContext.of(request)
    skin = gateway.skin_for(request)
    if skin is None:
        return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    return Response({"skin": skin.public()}, headers={"cache-control": "no-cache", "x-request-id": ctx.request_id})


@get("/bff/session")
async def session_state(request: Request[Any, Any, Any]) -> Response[Any]:
    """Whether the browser's session is logged in; also hands out the session and XSRF cookies."""
    gateway = _gateway(request)
    ctx = RequestContext.of(request)
    skin = gateway.skin_for(request)
    if skin is None:
        return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    session = await gateway.sessions.load(skin.id, request.cookies.get(gateway.session_cookie))
    body = {"loggedIn": session.data.logged_in, "login": session.data.login}
    response: Response[Any] = Response(body, headers={"cache-control": "no-store"})
    gateway.finish(request, response, session, ctx)
    return response


@post("/bff/session/adopt", status_code=200)
async def adopt_session(request: Request[Any, Any, Any], data: JSONBody[AdoptRequest]) -> Response[Any]:
    """A session id that arrived in a URL (`sid` / `wsession`) is adopted once the upstream
    confirms it, and never again shows in the browser. Limited like login (attempts per address,
    and failed ones more tightly), and logged without the id."""
    gateway = _gateway(request)
    ctx = RequestContext.of(request)
    skin = gateway.skin_for(request)
    if skin is None:
        return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    ctx.skin, ctx.route = skin.id, "adoptSession"
    session = await gateway.sessions.load(skin.id, request.cookies.get(gateway.session_cookie))
    incoming = Incoming(request.scope, request.receive)
    refused = refusal(gateway, request.method, incoming.headers, session)
    if refused is not None:
        return error_response(403, *refused, ctx)
    if not SESSION_ID.match(data.sid):
        return error_response(400, "BAD_SESSION_ID", "Not a session id", ctx)
    address = address_key(client_ip(gateway, incoming))
    admission = await gateway.limiter.admit(skin.id, "adoptSession", {"ip": address, "session": session.id})
    if admission.wait is not None:
        audit.warning("session.adopt_limited", skin=skin.id, address=address, request_id=ctx.request_id)
        limited = error_response(429, "RATE_LIMITED", "Too many attempts, please wait and try again", ctx)
        limited.headers["retry-after"] = str(admission.wait)
        return limited
    route = ROUTES_BY_NAME["getProfile"]
    candidate = SessionData(wsession=data.sid, jars=session.data.jars)
    probe = type(session)(session.id, candidate, session.stored)
    headers = upstream_headers(gateway, incoming, skin, probe, route, ctx)
    try:
        answer = await call_upstream(gateway, skin, route, {}, probe, "", b"{}", headers, ctx)
    except (httpx.TimeoutException, TimeoutError):
        await gateway.limiter.settle(admission, give_back=False)
        return error_response(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
    except (httpx.TransportError, CircuitOpen):
        await gateway.limiter.settle(admission, give_back=True)
        return error_response(502, "UPSTREAM_UNREACHABLE", "The platform cannot be reached", ctx)
    profile = _json(answer.body)
    session.data.jars = probe.data.jars
    confirmed = answer.status == 200 and profile.get("success") is True
    await gateway.limiter.settle(admission, give_back=confirmed)
    if not confirmed:
        audit.warning("session.adopt_refused", skin=skin.id, address=address, request_id=ctx.request_id)
        await gateway.sessions.save(skin.id, session, address)
        return error_response(401, "SESSION_NOT_ADOPTED", "That session is not valid", ctx)
    login = profile.get("login")
    session.log_in(data.sid, login if isinstance(login, str) else None, remember=False, with_password=False)
    await gateway.sessions.save(skin.id, session, address)
    audit.info("session.adopted", skin=skin.id, login=session.data.login, address=address, request_id=ctx.request_id)
    response: Response[Any] = Response({"loggedIn": True, "login": session.data.login})
    gateway.finish(request, response, session, ctx)
    return response


@get("/bff/health", sync_to_thread=False)
def health() -> dict[str, str]:
    return {"status": "ok"}


@get("/bff/ready")
async def ready(request: Request[Any, Any, Any]) -> Response[Any]:
    """Ready when not draining, the store answers and every upstream origin speaks HTTP.

    Public (balancers call it on the skins' hosts): it never names the upstreams; the
    admin status does."""
    gateway = _gateway(request)
    if gateway.draining:
        return Response({"status": "draining"}, status_code=503, headers={"connection": "close"})
    checks: dict[str, Any] = {}
    try:
        await gateway.shared.ping()
        await gateway.sessions.store.set("ready-probe", b"1", expires_in=5)
        checks["store"] = "ok"
    except StoreUnavailable:
        checks["store"] = "unavailable"
    origins = sorted(gateway.skins.upstream_origins())
    answers = await asyncio.gather(*(gateway.clients.reachable(origin) for origin in origins))
    down = sum(1 for ok, _ in answers if not ok)
    checks["upstreams"] = "ok" if not down else f"{down} of {len(origins)} unreachable"
    healthy = checks["store"] == "ok" and not down
    return Response(
        {"status": "ready" if healthy else "degraded", "checks": checks}, status_code=200 if healthy else 503
    )


@get("/bff/logo.svg", sync_to_thread=False, media_type="image/svg+xml")
def logo(request: Request[Any, Any, Any]) -> Response[bytes]:
    """The default logo: the skin's name in its colours."""
    skin = _gateway(request).skin_for(request)
    name = html.escape(skin.name if skin else "Casino")
    primary = skin.branding.primary if skin else "#f5b301"
    accent = skin.branding.accent if skin else "#e23d5b"
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="220" height="48" viewBox="0 0 220 48" role="img" '
        f'aria-label="{name}"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="{primary}"/>'
        f'<stop offset="1" stop-color="{accent}"/></linearGradient></defs>'
        f'<circle cx="24" cy="24" r="18" fill="url(#g)"/><text x="24" y="31" font-size="20" text-anchor="middle" '
        f'font-family="sans-serif" font-weight="700" fill="#0d0f1a">{name[:1]}</text>'
        f'<text x="52" y="31" font-size="20" font-family="sans-serif" font-weight="700" fill="url(#g)">{name}</text>'
        "</svg>"
    )
    return Response(svg.encode(), media_type="image/svg+xml", headers={"cache-control": "public, max-age=3600"})


@get("/bff/pay/{seque_no:str}")
async def payment_redirect(
    request: Request[Any, Any, Any],
    seque_no: Annotated[str, PathParameter(pattern=DEPOSIT_ID.pattern)],
    payMethod: Annotated[str, QueryParameter(name="payMethod", pattern=PAY_METHOD.pattern)] = "",
) -> Response[Any]:
    """A deposit's payment page, opened by the SPA in a new window: the gateway asks the
    platform (with the player's session, which the browser never sees) where to pay and
    redirects there, but only to a host the skin lists in `payment_hosts`."""
    gateway = _gateway(request)
    ctx = RequestContext.of(request)
    skin = gateway.skin_for(request)
    if skin is None:
        return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
    ctx.skin, ctx.route = skin.id, "paymentRedirect"
    asked = request.headers
    if cross_site(asked.get("origin"), asked.get("sec-fetch-site"), asked.get("host")):
        return error_response(403, "CROSS_SITE", "Cross-site requests are refused", ctx)
    if not DEPOSIT_ID.match(seque_no) or not PAY_METHOD.match(payMethod):
        return error_response(400, "BAD_REQUEST", "Not a deposit reference", ctx)
    session = await gateway.sessions.load(skin.id, request.cookies.get(gateway.session_cookie))
    if not session.data.logged_in:
        return Response(PAY_UNAVAILABLE, status_code=401, media_type="text/html; charset=utf-8")
    route = ROUTES_BY_NAME["paymentRedirect"]
    headers = upstream_headers(gateway, Incoming(request.scope, request.receive), skin, session, route, ctx)
    body = msgspec.json.encode({"seque_no": seque_no, "payMethod": payMethod})
    try:
        answer = await call_upstream(gateway, skin, route, {}, session, "", body, headers, ctx)
    except (httpx.HTTPError, TimeoutError, CircuitOpen):
        answer = None
    with contextlib.suppress(StoreUnavailable):
        await gateway.sessions.save(skin.id, session)  # the upstream's cookies of this call
    reply = _json(answer.body) if answer is not None and answer.status == 200 else {}
    target = reply.get("redirectUrl")
    if not isinstance(target, str) or not skin.allows_payment_to(target):
        ctx.upstream_status = answer.status if answer is not None else None
        # The platform refusing (no such deposit, not this player's) is a 404; no answer, a
        # broken one or a host the skin does not list is the platform failing us: 502.
        refused = answer is not None and answer.status < 500 and not isinstance(target, str)
        return Response(PAY_UNAVAILABLE, status_code=404 if refused else 502, media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-store"})  # fmt: skip
    return Response(
        b"",
        status_code=302,
        headers={"location": target, "cache-control": "no-store", "referrer-policy": "no-referrer"},
    )


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return {}
    return data if isinstance(data, dict) else {}


@get("/bff/openapi.json", sync_to_thread=False, include_in_schema=False)
def openapi_document(request: Request[Any, Any, Any]) -> Response[Any]:
    """The whole public surface in one OpenAPI document: the `/bff/*` routes (Litestar's own
    schema, also at /bff/schema) and every catalogue route the gateway forwards."""
    state = request.app.state
    body: bytes | None = state.get("openapi_document")
    if body is None:
        document: dict[str, Any] = request.app.openapi_schema.to_schema()
        catalogue = catalogue_openapi()
        error = catalogue["components"]["schemas"]["BffError"]
        for operation in (op for item in document.get("paths", {}).values() for op in item.values()):
            # Litestar documents its own `{status_code, detail}` for 4xx; the gateway's exception
            # handlers answer every error with the common error JSON instead.
            responses = operation.setdefault("responses", {})
            for status in [code for code in responses if code[:1] in ("4", "5")]:
                del responses[status]
            responses["default"] = {"description": "The common error JSON",
                                    "content": {"application/json": {"schema": error}}}  # fmt: skip
        pay = document.get("paths", {}).get("/bff/pay/{seque_no}", {}).get("get")
        if pay is not None:
            pay["responses"] = {
                "302": {"description": "To the payment page, on a host the skin lists"},
                "default": {"description": "A page for the payment window, or the common error JSON",
                            "content": {"text/html": {"schema": {"type": "string"}},
                                        "application/json": {"schema": error}}},
            }  # fmt: skip
        document["paths"] = {**document.get("paths", {}), **catalogue["paths"]}
        components = document.setdefault("components", {})
        components["schemas"] = {**components.get("schemas", {}), **catalogue["components"]["schemas"]}
        body = state["openapi_document"] = msgspec.json.encode(document)
    return Response(body, media_type="application/json", headers={"cache-control": "public, max-age=300"})


route_handlers = [config, session_state, adopt_session, health, ready, logo, payment_redirect, openapi_document]
