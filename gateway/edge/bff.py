"""The gateway's own endpoints for the SPA and for operators: `/bff/*`.

Litestar handlers; what they need is injected (`gateway.app` provides it), and they answer with
the same `Outgoing` and error JSON as the proxied path.
"""

from __future__ import annotations

import contextlib
import html
import re
import time
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import structlog
from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.openapi.spec import Schema
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

from contracts.catalogue import PAYMENT_REDIRECT, PROFILE
from contracts.openapi import catalogue_openapi
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.compression import Packed, represent
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import error, rate_limited
from gateway.http.security import cross_site, forgery
from gateway.maintenance.windows import Maintenance
from gateway.monitoring.health import Health
from gateway.state.ratelimit import RateLimiter
from gateway.state.session import Session, SessionData, Sessions
from gateway.store import StoreUnavailable
from gateway.upstream.platform import Platform

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator

PLATFORM_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{8,128}$")
DEPOSIT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
PAY_METHOD = re.compile(r"^[A-Za-z0-9_]{0,32}$")
ADOPT_SESSION = "adoptSession"
"""The adoption endpoint's name in logs and its rate limits' bucket (a gateway endpoint, not a route)."""
HTML = "text/html; charset=utf-8"
JSON = "application/json"
_encoder = msgspec.json.Encoder()
audit = structlog.get_logger("gateway.audit")
PAY_UNAVAILABLE = (
    "<!doctype html><meta charset=utf-8><title>Pago · Pagamento · Payment</title>"
    "<body style='font-family:sans-serif;background:#0d0f1a;color:#f3f4f8;padding:2rem'>"
    "<p>No pudimos abrir la página de pago. Cierra esta ventana y vuelve a intentarlo.</p>"
    "<p>Não foi possível abrir a página de pagamento. Feche esta janela e tente de novo.</p>"
    "<p>The payment page could not be opened. Close this window and try again.</p>"
)


class AdoptRequest(msgspec.Struct):
    sid: Annotated[str, msgspec.Meta(pattern=PLATFORM_SESSION_ID.pattern)]


class OutgoingSchema(OpenAPISchemaPlugin):
    """Documents a handler's `Outgoing` as what it is: a body described by the handler's route
    (the common error JSON for failures, `openapi_document`), not a dataclass to model."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return field_definition.annotation is Outgoing

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: SchemaCreator) -> Schema:
        return Schema()


def unknown_site(ctx: RequestContext) -> Outgoing:
    return error(404, "UNKNOWN_SITE", "This site is not configured here", ctx)


@get("/bff/config", sync_to_thread=False)
def config(
    request: Request[Any, Any, Any],
    skin: NamedDependency[Skin | None],
    packed: NamedDependency[Packed],
    maintenance: NamedDependency[Maintenance],
) -> Outgoing:
    """The public part of the skin: one SPA build serves every skin.

    `no-cache` with a strong ETag per encoding: the browser keeps it and asks again at every page
    load, answered 304 while the skin is unchanged, and sees an operator's change (branding, a
    feature switched off) at the next load, which a `max-age` would hide for its length. It
    depends on the Host alone, part of every cache's key, and on no cookie: a shared cache may
    keep it too, so it is not `private`. `maintenance`: the skin's window while it is on (its
    expected end, its message per language), else null; the SPA asks again at its end."""
    ctx = RequestContext.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    public = {**skin.public(), "maintenance": maintenance.for_players(skin.id)}
    variants = packed.variants(f"config {skin.id}", _encoder.encode({"skin": public}), JSON)
    return represent(variants, Incoming.of(request.scope).headers, JSON, ctx, {"cache-control": "no-cache"})


@get("/bff/session")
async def session_state(
    request: Request[Any, Any, Any],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
) -> Outgoing:
    """Whether the browser's session is logged in, since when (`signedInAt`, epoch ms; with the
    gateway's `now`, so every tab's session clock reads the same whatever its own clock says); also
    hands out the session and XSRF cookies."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    data = session.data
    signed_in = int(data.since * 1000) if data.logged_in else None
    state = {"loggedIn": data.logged_in, "login": data.login, "signedInAt": signed_in, "now": int(time.time() * 1000)}
    response = Outgoing.json(200, state, ctx, (b"cache-control", b"no-store"))
    browser_cookies.add(response, session, incoming)
    return response


@post("/bff/session/adopt", status_code=200)
async def adopt_session(
    request: Request[Any, Any, Any],
    data: JSONBody[AdoptRequest],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
    limiter: NamedDependency[RateLimiter],
    proxies: NamedDependency[TrustedProxies],
    platform: NamedDependency[Platform],
) -> Outgoing:
    """A session id that arrived in a URL (`sid` / `wsession`) is adopted once the upstream
    confirms it, and never again shows in the browser. Limited like login (attempts per address,
    and failed ones more tightly), and logged without the id."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    ctx.skin, ctx.route = skin.id, ADOPT_SESSION
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    refused = forgery(browser_cookies.xsrf, request.method, incoming.headers, None if session.is_new else session.id)
    if refused is not None:
        return error(403, *refused, ctx)
    if not PLATFORM_SESSION_ID.match(data.sid):
        return error(400, "BAD_SESSION_ID", "Not a session id", ctx)
    address = address_key(proxies.client_ip(incoming))
    admission = await limiter.admit(skin.id, "adoption", {"ip": address, "session": session.id}, bucket=ADOPT_SESSION)
    if admission.wait is not None:
        audit.warning("session.adopt_limited", skin=skin.id, address=address)
        return rate_limited(admission.wait, ctx)
    probe = Session(session.id, SessionData(wsession=data.sid, jars=session.data.jars), session.stored)
    outcome = await platform.ask(incoming, ctx, skin, PROFILE, probe, b"{}")
    if outcome.failure is not None:
        await limiter.settle(admission, give_back=outcome.unsent)
        if outcome.failure == "timeout":
            return error(504, "UPSTREAM_TIMEOUT", "The platform did not answer in time", ctx)
        return error(502, "UPSTREAM_UNREACHABLE", "The platform cannot be reached", ctx)
    session.data.jars = probe.data.jars
    profile = _json(outcome.body)
    confirmed = outcome.status == 200 and profile.get("success") is True
    await limiter.settle(admission, give_back=confirmed)
    if not confirmed:
        audit.warning("session.adopt_refused", skin=skin.id, address=address)
        await sessions.save(skin.id, session, address)
        return error(401, "SESSION_NOT_ADOPTED", "That session is not valid", ctx)
    login = profile.get("login")
    session.log_in(data.sid, login if isinstance(login, str) else None, remember=False, with_password=False)
    await sessions.save(skin.id, session, address)
    audit.info("session.adopted", skin=skin.id, login=session.data.login, address=address)
    response = Outgoing.json(200, {"loggedIn": True, "login": session.data.login}, ctx)
    browser_cookies.add(response, session, incoming)
    return response


@get("/bff/health", sync_to_thread=False)
def health() -> dict[str, str]:
    return {"status": "ok"}


@get("/bff/ready")
async def ready(request: Request[Any, Any, Any], health: NamedDependency[Health]) -> Outgoing:
    """Ready when not draining, the store answers and every upstream origin speaks HTTP.

    Public (balancers call it on the skins' hosts): it never names the upstreams; the
    admin status does."""
    ctx = RequestContext.of(request.scope)
    if health.lifecycle.draining:
        return Outgoing.json(503, {"status": "draining"}, ctx, (b"connection", b"close"))
    store = await health.store()
    upstreams = await health.upstreams()
    down = sum(1 for _, ok, _ in upstreams if not ok)
    checks = {
        "store": "ok" if store is None else "unavailable",
        "upstreams": "ok" if not down else f"{down} of {len(upstreams)} unreachable",
    }
    healthy = store is None and not down
    return Outgoing.json(200 if healthy else 503, {"status": "ready" if healthy else "degraded", "checks": checks}, ctx)


@get("/bff/logo.svg", sync_to_thread=False, media_type="image/svg+xml")
def logo(request: Request[Any, Any, Any], skin: NamedDependency[Skin | None]) -> Outgoing:
    """The default logo: the skin's name in its colours."""
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
    return Outgoing.page(
        200, svg, "image/svg+xml", RequestContext.of(request.scope), {"cache-control": "public, max-age=3600"}
    )


@get("/bff/pay/{seque_no:str}")
async def payment_redirect(
    request: Request[Any, Any, Any],
    seque_no: Annotated[str, PathParameter(pattern=DEPOSIT_ID.pattern)],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
    proxies: NamedDependency[TrustedProxies],
    platform: NamedDependency[Platform],
    payMethod: Annotated[str, QueryParameter(name="payMethod", pattern=PAY_METHOD.pattern)] = "",
) -> Outgoing:
    """A deposit's payment page, opened by the SPA in a new window: the gateway asks the
    platform (with the player's session, which the browser never sees) where to pay and
    redirects there, but only to a host the skin lists in `payment_hosts`."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    ctx.skin, ctx.route = skin.id, PAYMENT_REDIRECT.name
    if cross_site(incoming.headers.get("origin"), incoming.headers.get("sec-fetch-site"), incoming.headers.get("host")):
        return error(403, "CROSS_SITE", "Cross-site requests are refused", ctx)
    if not DEPOSIT_ID.match(seque_no) or not PAY_METHOD.match(payMethod):
        return error(400, "BAD_REQUEST", "Not a deposit reference", ctx)
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    if not session.data.logged_in:
        return Outgoing.page(401, PAY_UNAVAILABLE, HTML, ctx)
    body = msgspec.json.encode({"seque_no": seque_no, "payMethod": payMethod})
    outcome = await platform.ask(incoming, ctx, skin, PAYMENT_REDIRECT, session, body)
    with contextlib.suppress(StoreUnavailable):  # the platform's cookies of this call
        await sessions.save(skin.id, session, address_key(proxies.client_ip(incoming)))
    reply = _json(outcome.body) if outcome.failure is None and outcome.status == 200 else {}
    target = reply.get("redirectUrl")
    if not isinstance(target, str) or not skin.allows_payment_to(target):
        # The platform refusing (no such deposit, not this player's) is a 404; no answer, a
        # broken one or a host the skin does not list is the platform failing us: 502.
        refused = outcome.failure is None and outcome.status < 500 and not isinstance(target, str)
        return Outgoing.page(404 if refused else 502, PAY_UNAVAILABLE, HTML, ctx, {"cache-control": "no-store"})
    away = {"location": target, "cache-control": "no-store", "referrer-policy": "no-referrer"}
    return Outgoing.page(302, b"", "text/plain", ctx, away)


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return {}
    return data if isinstance(data, dict) else {}


@get("/bff/openapi.json", sync_to_thread=False, include_in_schema=False)
def openapi_document(request: Request[Any, Any, Any], packed: NamedDependency[Packed]) -> Outgoing:
    """The whole public surface in one OpenAPI document: the `/bff/*` routes (Litestar's own
    schema, also at /bff/schema) and every catalogue route the gateway forwards."""
    state = request.app.state
    body: bytes | None = state.get("openapi_document")
    if body is None:
        document: dict[str, Any] = request.app.openapi_schema.to_schema()
        catalogue = catalogue_openapi()
        shape = catalogue["components"]["schemas"]["BffError"]
        for operation in (op for item in document.get("paths", {}).values() for op in item.values()):
            # Litestar documents its own `{status_code, detail}` for 4xx; the gateway's exception
            # handlers answer every error with the common error JSON instead.
            responses = operation.setdefault("responses", {})
            for status in [code for code in responses if code[:1] in ("4", "5")]:
                del responses[status]
            responses["default"] = {
                "description": "The common error JSON",
                "content": {"application/json": {"schema": shape}},
            }
        pay = document.get("paths", {}).get("/bff/pay/{seque_no}", {}).get("get")
        if pay is not None:
            pay["responses"] = {
                "302": {"description": "To the payment page, on a host the skin lists"},
                "default": {
                    "description": "A page for the payment window, or the common error JSON",
                    "content": {"text/html": {"schema": {"type": "string"}}, "application/json": {"schema": shape}},
                },
            }
        document["paths"] = {**document.get("paths", {}), **catalogue["paths"]}
        components = document.setdefault("components", {})
        components["schemas"] = {**components.get("schemas", {}), **catalogue["components"]["schemas"]}
        body = state["openapi_document"] = msgspec.json.encode(document)
    variants = packed.variants("openapi", body, JSON)
    headers = {"cache-control": "public, max-age=300"}
    return represent(variants, Incoming.of(request.scope).headers, JSON, RequestContext.of(request.scope), headers)


route_handlers = [config, session_state, adopt_session, health, ready, logo, payment_redirect, openapi_document]
