"""The guard every admin route goes through: who is calling, and may their role do this.

Each route handler says what it needs: `opt={"role": "viewer" | "operator" | "admin"}`, or
`opt={"public": True}` (the console's page and assets, signing in); one that says neither
needs `admin`. A caller is a bearer token (one of the operators file's, or `ADMIN_TOKEN`, an
`admin` token of that name) or a console session (cookie `console`, `gateway.accounts.signin`);
a cookie's unsafe request must come from this site and echo its session's CSRF token in
`X-CSRF-Token`. The caller is put on the scope (`scope["operator"]`) and reaches handlers as
the dependency `operator`.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.handlers.base import BaseRouteHandler
from litestar.types import ExceptionHandlersMap

from gateway.accounts.audit import Audit, AuditEntry
from gateway.accounts.operators import ROLES, OperatorsFile, Role, token_digest
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.clients import TrustedProxies
from gateway.http.security import SAFE_METHODS, cross_site

SESSION_COOKIE = "console"
CSRF_COOKIE = "console-csrf"
CSRF_HEADER = "x-csrf-token"
POLL_HEADER = "x-console-poll"
"""`1` on the console's own refreshes: they do not count as the operator being active."""
ADMIN_TOKEN_NAME = "ADMIN_TOKEN"
"""The name the audit gives `ADMIN_TOKEN` (upper case: no name in the operators file is)."""


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


def signed_out() -> Refused:
    return Refused(401, "SIGNED_OUT", "Sign in, or send a valid bearer token", {"www-authenticate": "Bearer"})


def refused(request: Request[Any, Any, Any], exc: Refused) -> Outgoing:
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


class Sessions(Protocol):
    async def find(self, cookie: str, address: str) -> Signed:
        """The session's operator; `Refused` (401 SIGNED_OUT or SESSION_EXPIRED) when none."""
        ...

    async def seen(self, signed: Signed) -> None:
        """The operator was active just now (the idle timeout starts again)."""
        ...


class Guard:
    def __init__(
        self,
        operators: OperatorsFile,
        sessions: Sessions,
        audit: Audit,
        proxies: TrustedProxies,
        admin_token: str | None,
    ) -> None:
        self.operators = operators
        self.sessions = sessions
        self.audit = audit
        self.proxies = proxies
        self._admin = token_digest(admin_token) if admin_token else None
        self._used: set[tuple[str, str]] = set()
        """(token, address) already audited in this process: `token-use` is its first use from there."""

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        incoming = Incoming.of(connection.scope)
        unsafe = incoming.method not in SAFE_METHODS
        if handler.opt.get("public"):
            if unsafe:
                _same_site(incoming)  # no signing in from another site's form
            return
        caller = await self._caller(incoming, unsafe)
        need: Role = handler.opt.get("role", "admin")
        if not caller.may(need):
            raise Refused(403, "FORBIDDEN", f"This needs the {need} role", needs=need)
        cast("dict[str, Any]", connection.scope)["operator"] = caller

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
            _same_site(incoming)
            if not hmac.compare_digest(incoming.headers.get(CSRF_HEADER, "").encode(), signed.csrf.encode()):
                raise Refused(403, "CSRF", "Missing or wrong X-CSRF-Token")
        if incoming.headers.get(POLL_HEADER) != "1":
            await self.sessions.seen(signed)
        return signed.operator

    async def _bearer(self, authorization: str, address: str) -> Operator:
        scheme, _, given = authorization.partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            raise signed_out()
        digest = token_digest(given.strip())
        if self._admin is not None and hmac.compare_digest(digest, self._admin):
            caller = Operator(ADMIN_TOKEN_NAME, "admin", "token", address)
        else:
            token = self.operators.roster.tokens.get(digest)
            if token is None:
                raise signed_out()
            caller = Operator(token.name, token.role, "token", address, token.skins)
        if (caller.name, address) not in self._used:
            # Once per token and address per process: who uses it from where, without an entry per scrape.
            if len(self._used) >= 10_000:
                self._used.clear()
            self._used.add((caller.name, address))
            await self.audit.record(
                AuditEntry("token-use", caller.name, "token", address, "ok", detail={"role": caller.role})
            )
        return caller


def _same_site(incoming: Incoming) -> None:
    headers = incoming.headers
    if cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host")):
        raise Refused(403, "CSRF", "Cross-site requests are refused")


def operator(request: Request[Any, Any, Any]) -> Operator:
    """The caller the guard let through (the dependency `operator`)."""
    return cast("Operator", request.scope["operator"])  # type: ignore[typeddict-item]


DEPENDENCIES = {"operator": Provide(operator, sync_to_thread=False)}
EXCEPTION_HANDLERS = cast("ExceptionHandlersMap", {Refused: refused})
