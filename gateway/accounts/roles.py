"""The guard every admin route goes through: who is calling, and may their role do this.

Each route handler says what it needs: `opt={"role": "viewer" | "operator" | "admin"}`, or
`opt={"public": True}` (the console's page and assets, signing in); one that says neither
needs `admin`. A caller is a bearer token (one of the operators file's, or `ADMIN_TOKEN`, an
`admin` token of that name) or a console session (cookie `console`, `gateway.accounts.signin`);
a cookie's unsafe request must come from this site and echo its session's CSRF token in
`X-CSRF-Token`. The caller is put on the scope (`scope["operator"]`) and reaches handlers as
the dependency `operator`.

Every refusal (401, 403, CSRF, 429) is a log line (`console.refused`) and, once per burst, an
audit entry (`refused`; `token-limited`): the first of its kind (code, caller, address, and for a
403 the route) within `BURST_S` on any instance, so that a flood of them cannot flood the trail.
Wrong bearer tokens are limited per client address like failed sign-ins (`TOKEN_LIMITS`, in the
shared store: every instance counts toward one limit); while an address is limited even a right
token from it is answered 429, or guessing on would still find one.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

import structlog
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.handlers.base import BaseRouteHandler
from litestar.types import ExceptionHandlersMap

from gateway.accounts.audit import Action, Audit, AuditEntry
from gateway.accounts.operators import ROLES, OperatorsFile, Role, token_digest
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.security import SAFE_METHODS, cross_site
from gateway.state.ratelimit import Limit, RateLimiter
from gateway.store import StoreUnavailable, keys

log = structlog.get_logger("gateway.console")

SESSION_COOKIE = "console"
CSRF_COOKIE = "console-csrf"
CSRF_HEADER = "x-csrf-token"
POLL_HEADER = "x-console-poll"
"""`1` on the console's own refreshes: they do not count as the operator being active."""
ADMIN_TOKEN_NAME = "ADMIN_TOKEN"
"""The name the audit gives `ADMIN_TOKEN` (upper case: no name in the operators file is)."""
TOKEN = "token"
TOKEN_LIMITS = {TOKEN: (Limit("ip", 20, 15 * 60, True),)}
"""Wrong bearer tokens per client address in 15 minutes, as for failed sign-ins (the limiter's rule)."""
BURST_S = 60
"""A refusal like one recorded within this is in the log only."""


@dataclass(frozen=True)
class Operator:
    """Who is calling: a signed-in operator (`via="console"`) or a token (`via="token"`)."""

    name: str
    role: Role
    via: Literal["console", "token"]
    address: str | None = None
    """The client's address (behind trusted balancers), for the audit."""
    skins: tuple[str, ...] = ()
    """The skins they may change (`gateway.accounts.scopes`); empty: every skin."""

    def may(self, need: Role) -> bool:
        return ROLES.index(self.role) >= ROLES.index(need)


class Refused(HTTPException):
    """A request the guard or the console refuses, answered in the gateway's error JSON with its
    own code (and `more` fields beside it)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **more: str
    ) -> None:
        super().__init__(detail=message, status_code=status, headers=headers)
        self.code = code
        self.more = more
        self.who: str | None = None
        """Who was refused, when known (a signed-in operator's CSRF refusal, a role too low)."""


def signed_out() -> Refused:
    return Refused(401, "SIGNED_OUT", "Sign in, or send a valid bearer token", {"www-authenticate": "Bearer"})


def respond_to_refusal(request: Request[Any, Any, Any], exc: Refused) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    body = {"message": exc.detail, "code": exc.code, "requestId": ctx.request_id, **exc.more}
    headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in (exc.headers or {}).items()]
    return Outgoing.json(exc.status_code, body, ctx, (b"cache-control", b"no-store"), *headers)


@dataclass(frozen=True)
class Signed:
    """A console session found valid: its operator (role as the file says now) and CSRF token."""

    key: str
    operator: Operator
    csrf: str
    created: float
    seen: float


class ConsoleSessionLookup(Protocol):
    """What the admin guard needs of the console's sessions (`gateway.accounts.signin.ConsoleSessions`)."""

    async def find(self, cookie: str, address: str) -> Signed:
        """The session's operator; `Refused` (401 SIGNED_OUT or SESSION_EXPIRED) when none."""
        ...

    async def seen(self, signed: Signed) -> None:
        """The operator was active just now (the idle timeout starts again)."""
        ...


class AdminGuard:
    """The admin listener's Litestar guard: finds who calls (a console session or a bearer token)
    and puts their `Operator` on the scope (the player pipeline's guard stage is `pipeline.guard.Guard`)."""

    def __init__(
        self,
        operators: OperatorsFile,
        sessions: ConsoleSessionLookup,
        audit: Audit,
        proxies: TrustedProxies,
        admin_token: str | None,
        limiter: RateLimiter,
    ) -> None:
        self.operators = operators
        self.sessions = sessions
        self.audit = audit
        self.proxies = proxies
        self.limiter = limiter
        """Counts wrong tokens (`TOKEN_LIMITS` among its rules) in the shared store."""
        self._admin = token_digest(admin_token) if admin_token else None
        self._used: set[tuple[str, str]] = set()
        """(token, address) already audited in this process: `token-use` is its first use from there."""

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        incoming = Incoming.of(connection.scope)
        try:
            caller = await self._admit(incoming, handler)
        except Refused as refusal:
            await self._record_refusal(incoming, refusal)
            raise
        if caller is not None:
            cast("dict[str, Any]", connection.scope)["operator"] = caller

    async def _admit(self, incoming: Incoming, handler: BaseRouteHandler) -> Operator | None:
        unsafe = incoming.method not in SAFE_METHODS
        if handler.opt.get("public"):
            if unsafe:
                _same_site(incoming)  # no signing in from another site's form
            return None
        caller = await self._caller(incoming, unsafe)
        need: Role = handler.opt.get("role", "admin")
        if not caller.may(need):
            raise _by(Refused(403, "FORBIDDEN", f"This needs the {need} role", needs=need), caller.name)
        return caller

    def address(self, incoming: Incoming) -> str:
        return self.proxies.client_ip(incoming)

    async def _caller(self, incoming: Incoming, unsafe: bool) -> Operator:
        address = self.address(incoming)
        authorization = incoming.headers.get("authorization")
        if authorization is not None:  # a browser never sends one on its own: no CSRF to fear
            return await self._bearer(authorization, address)
        cookie = incoming.cookie(SESSION_COOKIE)
        if not cookie:
            raise signed_out()
        signed = await self.sessions.find(cookie, address)
        if unsafe:
            try:
                _same_site(incoming)
            except Refused as refusal:
                raise _by(refusal, signed.operator.name) from None
            if not hmac.compare_digest(incoming.headers.get(CSRF_HEADER, "").encode(), signed.csrf.encode()):
                raise _by(Refused(403, "CSRF", "Missing or wrong X-CSRF-Token"), signed.operator.name)
        if incoming.headers.get(POLL_HEADER) != "1":
            await self.sessions.seen(signed)
        return signed.operator

    async def _bearer(self, authorization: str, address: str) -> Operator:
        admission = await self.limiter.admit(keys.CONSOLE, TOKEN, {"ip": address_key(address)})
        if admission.wait is not None:
            retry = {"retry-after": str(admission.wait)}
            raise Refused(429, "TOKEN_LIMITED", "Too many wrong tokens from this address; try again later", retry)
        caller = self._token(authorization, address)
        await self.limiter.settle(admission, give_back=caller is not None)
        if caller is None:
            raise signed_out()
        if (caller.name, address) not in self._used:
            # Once per token and address per process: who uses it from where, without an entry per scrape.
            if len(self._used) >= 10_000:
                self._used.clear()
            self._used.add((caller.name, address))
            await self.audit.record(
                AuditEntry("token-use", caller.name, "token", address, "ok", detail={"role": caller.role})
            )
        return caller

    def _token(self, authorization: str, address: str) -> Operator | None:
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            return None
        digest = token_digest(given.strip())
        if self._admin is not None and hmac.compare_digest(digest, self._admin):
            return Operator(ADMIN_TOKEN_NAME, "admin", "token", address)
        token = self.operators.roster.tokens.get(digest)
        return Operator(token.name, token.role, "token", address, token.skins) if token is not None else None

    async def _record_refusal(self, incoming: Incoming, refusal: Refused) -> None:
        """A log line for every refusal; an audit entry for the first of its burst in the cluster."""
        address, who = self.address(incoming), refusal.who or "(unknown)"
        via = _via(incoming)
        target = f"{incoming.method} {incoming.path}"
        status, code = refusal.status_code, refusal.code
        log.info("console.refused", status=status, code=code, who=who, via=via, address=address, target=target)
        if _asks_only(incoming, code):
            return
        burst = "\0".join([code, who, address, target if status == 403 else ""])
        try:
            first = await self.limiter.shared.set_nx(keys.console("refused", _digest(burst)), b"1", BURST_S * 1000)
        except StoreUnavailable:
            first = True  # better twice than never
        if first:
            action: Action = "token-limited" if code == "TOKEN_LIMITED" else "refused"
            detail = {"status": status, "code": code, "burstS": BURST_S}
            await self.audit.record(AuditEntry(action, who, via, address, "refused", target=target, detail=detail))


def _via(incoming: Incoming) -> str:
    """How the refused request came: a bearer token, a console cookie, or with nothing (`none`)."""
    if incoming.headers.get("authorization") is not None:
        return "token"
    return "console" if incoming.cookie(SESSION_COOKIE) else "none"


def _by(refusal: Refused, who: str) -> Refused:
    refusal.who = who
    return refusal


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _asks_only(incoming: Incoming, code: str) -> bool:
    """The console asking whether it is signed in, with nothing to sign in with: a question, not an attempt."""
    bare = incoming.headers.get("authorization") is None and not incoming.cookie(SESSION_COOKIE)
    return bare and code == "SIGNED_OUT" and incoming.method == "GET" and incoming.path == "/admin/api/session"


def _same_site(incoming: Incoming) -> None:
    headers = incoming.headers
    if cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host")):
        raise Refused(403, "CSRF", "Cross-site requests are refused")


def operator(request: Request[Any, Any, Any]) -> Operator:
    """The caller the guard let through (the dependency `operator`)."""
    return cast("Operator", request.scope["operator"])  # type: ignore[typeddict-item]


DEPENDENCIES = {"operator": Provide(operator, sync_to_thread=False)}
EXCEPTION_HANDLERS = cast("ExceptionHandlersMap", {Refused: respond_to_refusal})
