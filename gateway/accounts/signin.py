"""Console sessions: signing in with a name and a password, the session behind the `console`
cookie, signing out.

A session is an opaque random id in an HttpOnly, SameSite=Strict cookie (Path=/admin); its
record lives in the shared store under the id's SHA-256 (Redis: it survives a restart and
every instance's admin listener knows it) and ends `CONSOLE_IDLE_S` after the operator's last
request or `CONSOLE_MAX_S` after signing in, whichever comes first. The role and skins are the
operators file's on each request; a new password, disabling the operator or ending their sessions
(`Account.sessions_after`) ends the sessions signed in before.
Failed sign-ins are limited per name (5 in 15 min) and per address (20 in 15 min) on every
instance, wrong bearer tokens per address (20 in 15 min, `gateway.accounts.roles`) by the same
limiter; an unknown name and a wrong password answer alike, after the same work.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, delete, get, post
from litestar.datastructures import Cookie
from litestar.di import NamedDependency
from litestar.params import JSONBody

from gateway.accounts.audit import Audit, AuditEntry
from gateway.accounts.operators import Account, OperatorsFile, Passwords, Role
from gateway.accounts.roles import CSRF_COOKIE, SESSION_COOKIE, TOKEN_LIMITS, Operator, Refused, Signed, signed_out
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.clients import TrustedProxies, address_key
from gateway.http.errors import FieldError, error, invalid
from gateway.state.ratelimit import Limit, RateLimitConfig, RateLimiter
from gateway.store import Shared, keys

SIGN_IN = "sign-in"
WINDOW_S = 15 * 60
SIGN_IN_LIMITS = {SIGN_IN: (Limit("login", 5, WINDOW_S, True), Limit("ip", 20, WINDOW_S, True))}
"""Failures only: each attempt holds a place while its password is checked, a success gives it back."""
TOUCH_S = 5.0
"""A session's last-seen time is written again at most this often."""


class SessionRecord(msgspec.Struct, frozen=True):
    name: str
    stamp: str
    """A fingerprint of the password hash at sign-in: another hash (a new password) ends it."""
    csrf: str
    created: float
    seen: float


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stamp(account: Account) -> str:
    return _digest(account.password or "")[:16]


class ConsoleSessions:
    def __init__(
        self,
        shared: Shared,
        operators: OperatorsFile,
        idle_s: float,
        max_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.shared = shared
        self.operators = operators
        self.idle_s = idle_s
        self.max_s = max_s
        self.clock = clock

    async def start(self, account: Account) -> tuple[str, SessionRecord]:
        """A new session for `account`: (the cookie's value, its record)."""
        cookie, now = secrets.token_urlsafe(32), self.clock()
        record = SessionRecord(account.name, _stamp(account), secrets.token_urlsafe(24), now, now)
        await self._keep(keys.console("session", _digest(cookie)), record)
        return cookie, record

    async def find(self, cookie: str, address: str) -> Signed:
        key = keys.console("session", _digest(cookie))
        raw = await self.shared.get(key)
        if raw is None:
            raise signed_out()
        record = msgspec.json.decode(raw, type=SessionRecord)
        if self.clock() >= self.ends(record.created, record.seen):
            await self.shared.delete(key)
            raise Refused(401, "SESSION_EXPIRED", "The console session expired; sign in again")
        account = self.operators.account(record.name)
        # removed or disabled, a new password, or their sessions ended (by an admin or the CLI)
        if account is None or _stamp(account) != record.stamp or record.created <= account.sessions_after:
            await self.shared.delete(key)
            raise signed_out()
        operator = Operator(account.name, account.role, "console", address, account.skins)
        return Signed(key, operator, record.csrf, record.created, record.seen)

    async def seen(self, signed: Signed) -> None:
        now = self.clock()
        if now - signed.seen >= TOUCH_S:
            account = self.operators.account(signed.operator.name)
            stamp = _stamp(account) if account is not None else ""
            await self._keep(signed.key, SessionRecord(signed.operator.name, stamp, signed.csrf, signed.created, now))

    async def end(self, cookie: str) -> None:
        await self.shared.delete(keys.console("session", _digest(cookie)))

    def ends(self, created: float, seen: float) -> float:
        return min(seen + self.idle_s, created + self.max_s)

    async def _keep(self, key: str, record: SessionRecord) -> None:
        # Kept a while past its end, so that a late request hears SESSION_EXPIRED rather than SIGNED_OUT.
        ttl_s = self.ends(record.created, record.seen) - self.clock() + self.idle_s
        await self.shared.set(key, msgspec.json.encode(record), max(1, int(ttl_s * 1000)))


@dataclass(frozen=True)
class Accounts:
    """Who may use the admin listener and their console sessions (made by `gateway.app`)."""

    operators: OperatorsFile
    passwords: Passwords
    sessions: ConsoleSessions
    limiter: RateLimiter
    """Failed sign-ins and wrong bearer tokens (the guard's `TOKEN_LIMITS`), counted cluster-wide."""
    proxies: TrustedProxies
    secure: bool
    """Cookies only over https (off with `GATEWAY_ENV=development`)."""

    @classmethod
    def open(
        cls,
        operators: OperatorsFile,
        shared: Shared,
        proxies: TrustedProxies,
        secure: bool,
        idle_s: float,
        max_s: float,
    ) -> Accounts:
        limiter = RateLimiter(shared, RateLimitConfig(rules={**SIGN_IN_LIMITS, **TOKEN_LIMITS}))
        return cls(operators, Passwords(), ConsoleSessions(shared, operators, idle_s, max_s), limiter, proxies, secure)

    def cookie(self, name: str, value: str, *, httponly: bool, max_age: int | None = None) -> tuple[bytes, bytes]:
        cookie = Cookie(
            key=name,
            value=value,
            path="/admin",
            httponly=httponly,
            samesite="strict",
            secure=self.secure,
            max_age=max_age,
        )
        return cookie.to_encoded_header()


class SignInForm(msgspec.Struct):
    name: str = ""
    password: str = ""


def _iso(t: float | None) -> str | None:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)) if t is not None else None


class ConsoleSession(msgspec.Struct, rename="camel"):
    """Who is signed in to the console and until when (GET and POST /admin/api/session)."""

    name: str
    role: Role
    skins: list[str]
    """The skins they may change; empty: every skin."""
    idle_expires_at: str | None
    """When the session ends unless used before (ISO 8601, UTC); None for a bearer token."""
    expires_at: str | None
    """When it ends whatever happens; None for a bearer token."""


def _described(operator: Operator, accounts: Accounts, record: SessionRecord | Signed | None) -> ConsoleSession:
    ends = accounts.sessions.ends(record.created, record.seen) if record is not None else None
    return ConsoleSession(
        name=operator.name,
        role=operator.role,
        skins=list(operator.skins),
        idle_expires_at=_iso(ends),
        expires_at=_iso(record.created + accounts.sessions.max_s) if record is not None else None,
    )


@post("/admin/api/session", status_code=200, opt={"public": True})
async def sign_in(
    request: Request[Any, Any, Any],
    data: JSONBody[SignInForm],
    accounts: NamedDependency[Accounts],
    audit: NamedDependency[Audit],
) -> Outgoing:
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    missing = [
        FieldError(field, "REQUIRED", f"Enter your {field}")
        for field in ("name", "password")
        if not getattr(data, field).strip()
    ]
    if missing:
        return invalid(ctx, missing)
    name, address = data.name.strip().lower(), accounts.proxies.client_ip(incoming)
    account = accounts.operators.account(name)
    who = name if account is not None else "(unknown)"  # what was typed may be a password
    admission = await accounts.limiter.admit(
        keys.CONSOLE, SIGN_IN, {"login": _digest(name), "ip": address_key(address)}
    )
    if admission.wait is not None:
        await _audit_limit(accounts, audit, who, address, admission.wait)
        return error(
            429,
            "SIGN_IN_LIMITED",
            "Too many failed sign-ins; try again later",
            ctx,
            (b"retry-after", str(admission.wait).encode()),
        )
    matches = await accounts.passwords.verify(account.password if account is not None else None, data.password)
    await accounts.limiter.settle(admission, give_back=matches)
    if account is None or not matches:
        await audit.record(AuditEntry("sign-in-failed", who, "console", address, "refused"))
        return error(401, "SIGN_IN_FAILED", "Wrong name or password", ctx)
    if (old := incoming.cookie(SESSION_COOKIE)) is not None:
        await accounts.sessions.end(old)  # one browser, one session
    cookie, record = await accounts.sessions.start(account)
    await audit.record(AuditEntry("sign-in", account.name, "console", address, "ok", detail={"role": account.role}))
    response = Outgoing.json(
        200,
        _described(Operator(account.name, account.role, "console", skins=account.skins), accounts, record),
        ctx,
        (b"cache-control", b"no-store"),
    )
    response.headers += [
        accounts.cookie(SESSION_COOKIE, cookie, httponly=True),
        accounts.cookie(CSRF_COOKIE, record.csrf, httponly=False),
    ]
    return response


async def _audit_limit(accounts: Accounts, audit: Audit, who: str, address: str, wait: int) -> None:
    """One `sign-in-limited` entry per name and address while the limit holds, not one per attempt."""
    once = keys.console("limited", _digest(f"{who}\0{address}"))
    if await accounts.sessions.shared.set_nx(once, b"1", wait * 1000):
        await audit.record(
            AuditEntry("sign-in-limited", who, "console", address, "refused", detail={"retryAfterS": wait})
        )


@get("/admin/api/session", opt={"role": "viewer"})
async def session(
    request: Request[Any, Any, Any], operator: NamedDependency[Operator], accounts: NamedDependency[Accounts]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    cookie = Incoming.of(request.scope).cookie(SESSION_COOKIE)
    signed = None
    if operator.via == "console" and cookie:  # as the guard just found it (and saw it)
        signed = await accounts.sessions.find(cookie, operator.address or "")
    return Outgoing.json(200, _described(operator, accounts, signed), ctx, (b"cache-control", b"no-store"))


@delete("/admin/api/session", status_code=200, opt={"role": "viewer"})
async def sign_out(
    request: Request[Any, Any, Any],
    operator: NamedDependency[Operator],
    accounts: NamedDependency[Accounts],
    audit: NamedDependency[Audit],
) -> Outgoing:
    cookie = Incoming.of(request.scope).cookie(SESSION_COOKIE)
    request_id = RequestContext.of(request.scope).request_id.encode("latin-1")
    response = Outgoing(204, [(b"x-request-id", request_id), (b"cache-control", b"no-store")])
    if operator.via == "console" and cookie:
        await accounts.sessions.end(cookie)
        await audit.record(AuditEntry("sign-out", operator.name, "console", operator.address, "ok"))
        response.headers += [
            accounts.cookie(SESSION_COOKIE, "", httponly=True, max_age=0),
            accounts.cookie(CSRF_COOKIE, "", httponly=False, max_age=0),
        ]
    return response


HANDLERS = [sign_in, session, sign_out]
