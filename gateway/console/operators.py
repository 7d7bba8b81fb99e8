"""The console's operators, managed by admins: list, add (with a one-time sign-in link), change
role, limit to some skins, disable and enable, end their sessions, a new link; and the link's
own page's call, which sets the new operator's password.

Every change is written to the operators file through `gateway.accounts.roster` (as the CLI
writes it: atomically, under its lock), which stays the one source of truth; this instance takes
it up at once and every other one sharing the file at its next request. A one-time link carries
its token in the URL's fragment (never sent to a server, so never in an access log or a
Referer); the file keeps its SHA-256; it works once, for 24 hours. Each change, and each refusal,
is audited (`operator-*`, `via` console) without a password or a token.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from litestar import Request, get, patch, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from gateway.accounts import roster as edits
from gateway.accounts.audit import Action, Audit, AuditEntry, AuditResult
from gateway.accounts.operators import Account, Role, RosterFile
from gateway.accounts.roles import Operator
from gateway.accounts.roster import Refusal
from gateway.accounts.signin import Accounts
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.errors import FieldError, error, invalid
from gateway.parts import Gateway

T = TypeVar("T")
S = TypeVar("S", bound=msgspec.Struct)
_NO_STORE = (b"cache-control", b"no-store")
WELCOME = "/admin/welcome#"
"""A sign-in link: this, then its token (in the fragment)."""


class NewOperator(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""
    role: Role = "viewer"
    skins: list[str] = []


class OperatorEdit(msgspec.Struct, forbid_unknown_fields=True):
    """What to change (what is left out stays)."""

    role: Role | None = None
    skins: list[str] | None = None
    disabled: bool | None = None


class Welcome(msgspec.Struct, forbid_unknown_fields=True):
    token: str = ""
    password: str = ""


def _iso(t: float | None) -> str | None:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)) if t else None


def described(account: Account) -> dict[str, Any]:
    """An operator as the console shows them (never a hash or a link's digest)."""
    return {
        "name": account.name,
        "role": account.role,
        "skins": list(account.skins),
        "disabled": account.disabled,
        "hasPassword": account.password is not None,
        "linkExpiresAt": _iso(account.link_expires) if account.link_sha256 else None,
    }


def _decoded(body: bytes, kind: type[S]) -> S | list[FieldError]:
    try:
        return msgspec.json.decode(body or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        field = str(exc).rpartition("$.")[2].rstrip("`").split(".")[0].split("[")[0] or "body"
        return [FieldError(field, "INVALID", str(exc))]
    except msgspec.DecodeError:
        return [FieldError("body", "INVALID", "Send a JSON object")]


class RosterChanges:
    """One admin's changes to the operators file, audited."""

    def __init__(
        self, gateway: Gateway, accounts: Accounts, audit: Audit, operator: Operator | None, address: str
    ) -> None:
        self.gateway, self.accounts, self.audit, self.operator = gateway, accounts, audit, operator
        self.address = address
        """The caller's (for the link's page, where nobody is signed in)."""

    def known_skins(self) -> list[str]:
        return [skin.id for skin in self.gateway.config.skins.all]

    async def edit(
        self, ctx: RequestContext, action: Action, target: str, change: Callable[[RosterFile], T]
    ) -> T | Outgoing:
        """`change` made to the file (and in force here at once), or the answer that says why not."""
        path = self.accounts.operators.path
        if path is None:
            return error(409, "NO_OPERATORS_FILE", "No OPERATORS_FILE: operators are not managed here", ctx)
        try:
            done = await asyncio.to_thread(edits.edit, path, change)
        except Refusal as exc:
            await self.record(action, "refused", target, detail={"field": exc.field, "code": exc.code})
            return invalid(ctx, [FieldError(exc.field, exc.code, exc.message)])
        except OSError as exc:
            message = f"The operators file cannot be written ({exc.strerror})"
            return error(503, "OPERATORS_FILE_UNWRITABLE", message, ctx)
        self.accounts.operators.reload("console")
        return done

    async def done(
        self, ctx: RequestContext, action: Action, target: str, change: Callable[[RosterFile], T]
    ) -> T | Outgoing:
        """`edit`, and its entry when it is made (for a change whose entry says no more than its name)."""
        done = await self.edit(ctx, action, target, change)
        if not isinstance(done, Outgoing):
            await self.record(action, "ok", target)
        return done

    async def record(self, action: Action, outcome: AuditResult, target: str, **fields: Any) -> None:
        """An entry by the admin signed in (on the link's page, nobody is: `who` is the link's operator)."""
        who = self.operator
        name, via, address = (who.name, who.via, who.address) if who else (target, "console", self.address)
        await self.audit.record(AuditEntry(action, name, via, address, outcome, target=target, **fields))


def _roster(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    accounts: NamedDependency[Accounts],
    audit: NamedDependency[Audit],
) -> RosterChanges:
    operator = request.scope.get("operator")  # none on the public link page
    address = accounts.proxies.client_ip(Incoming.of(request.scope))
    return RosterChanges(gateway, accounts, audit, operator if isinstance(operator, Operator) else None, address)


@get("/admin/api/operators", opt={"role": "admin"})
async def list_operators(request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges]) -> Outgoing:
    accounts = roster.accounts.operators.roster.file.operators
    answer = {
        "operators": [described(a) for a in accounts],
        "skins": roster.known_skins(),
        "managed": roster.accounts.operators.path is not None,
    }
    return Outgoing.json(200, answer, RequestContext.of(request.scope), _NO_STORE)


def _link_response(ctx: RequestContext, account: Account, token: str, status: int = 200) -> Outgoing:
    link = {"path": WELCOME + token, "expiresAt": _iso(account.link_expires)}
    return Outgoing.json(status, {"operator": described(account), "link": link}, ctx, _NO_STORE)


@post("/admin/api/operators", status_code=201, opt={"role": "admin"})
async def add(request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = _decoded(await request.body(), NewOperator)
    if isinstance(asked, list):
        return invalid(ctx, asked)
    name = asked.name.strip().lower()

    def change(file: RosterFile) -> tuple[Account, str]:
        skins = edits.skins_of(asked.skins, roster.known_skins())
        edits.add(file, name, asked.role, skins, None)
        return edits.issue_link(file, name, time.time())

    done = await roster.edit(ctx, "operator-add", name or "(none)", change)
    if isinstance(done, Outgoing):
        return done
    account, token = done
    await roster.record("operator-add", "ok", name, after={"role": account.role, "skins": list(account.skins)})
    return _link_response(ctx, account, token, 201)


def _edits(asked: OperatorEdit, known: list[str]) -> list[tuple[Action, Callable[[RosterFile, str], Account]]]:
    """Each field given, as the audit's action and the change it makes."""
    steps: list[tuple[Action, Callable[[RosterFile, str], Account]]] = []
    if asked.role is not None:
        role = asked.role
        steps.append(("operator-role", lambda file, name: edits.set_role(file, name, role)))
    if asked.skins is not None:
        skins = asked.skins
        steps.append(("operator-skins", lambda file, name: edits.set_skins(file, name, edits.skins_of(skins, known))))
    if asked.disabled is True:
        steps.append(("operator-disable", lambda file, name: edits.disable(file, name, time.time())))
    elif asked.disabled is False:
        steps.append(("operator-enable", lambda file, name: edits.enable(file, name)))
    return steps


@patch("/admin/api/operators/{name:str}", opt={"role": "admin"})
async def change(
    request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges], name: FromPath[str]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = _decoded(await request.body(), OperatorEdit)
    if isinstance(asked, list):
        return invalid(ctx, asked)
    steps = _edits(asked, roster.known_skins())
    if not steps:
        return invalid(ctx, [FieldError("body", "REQUIRED", "Say what to change: role, skins or disabled")])

    def apply(file: RosterFile) -> list[tuple[Action, Account, Account]]:
        made = []
        for action, step in steps:
            before = edits.find(file, name)
            made.append((action, before, step(file, name)))
        return made

    done = await roster.edit(ctx, steps[0][0], name, apply)
    if isinstance(done, Outgoing):
        return done
    for action, before, after in done:
        await roster.record(action, "ok", name, before=_audit_fields(before), after=_audit_fields(after))
    return Outgoing.json(200, {"operator": described(done[-1][2])}, ctx, _NO_STORE)


def _audit_fields(account: Account) -> dict[str, Any]:
    return {"role": account.role, "skins": list(account.skins), "disabled": account.disabled}


@post("/admin/api/operators/{name:str}/sessions/end", status_code=200, opt={"role": "admin"})
async def end_sessions(
    request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges], name: FromPath[str]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    ended = await roster.done(ctx, "operator-sessions-ended", name, lambda f: edits.end_sessions(f, name, time.time()))
    return ended if isinstance(ended, Outgoing) else Outgoing.json(200, {"operator": described(ended)}, ctx, _NO_STORE)


@post("/admin/api/operators/{name:str}/link", status_code=200, opt={"role": "admin"})
async def new_link(
    request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges], name: FromPath[str]
) -> Outgoing:
    """A new one-time link (a forgotten password: their old one works until the link is used)."""
    ctx = RequestContext.of(request.scope)
    linked = await roster.done(ctx, "operator-link", name, lambda f: edits.issue_link(f, name, time.time()))
    return linked if isinstance(linked, Outgoing) else _link_response(ctx, *linked)


@post("/admin/api/welcome", status_code=200, opt={"public": True})
async def welcome(request: Request[Any, Any, Any], roster: NamedDependency[RosterChanges]) -> Outgoing:
    """The link's page sets the password (the console then signs in with it, as anyone does)."""
    ctx = RequestContext.of(request.scope)
    asked = _decoded(await request.body(), Welcome)
    if isinstance(asked, list):
        return invalid(ctx, asked)
    owner = edits.link_owner(roster.accounts.operators.roster.file, asked.token) if asked.token else None
    if owner is None or not owner.link_ok(time.time()):
        code = "LINK_EXPIRED" if owner is not None else "LINK_INVALID"
        target = owner.name if owner else "(unknown)"
        await roster.record("operator-link-used", "refused", target, detail={"code": code})
        message = "This sign-in link expired" if owner else "This sign-in link was used already or never existed"
        return invalid(ctx, [FieldError("token", code, message)])
    if (problem := edits.password_problem(owner.name, asked.password)) is not None:
        return invalid(ctx, [FieldError(problem.field, problem.code, problem.message)])
    hashed = await asyncio.to_thread(roster.accounts.passwords.hash, asked.password)
    done = await roster.done(
        ctx, "operator-link-used", owner.name, lambda f: edits.use_link(f, asked.token, hashed, time.time())
    )
    return done if isinstance(done, Outgoing) else Outgoing.json(200, {"name": done.name}, ctx, _NO_STORE)


route_handlers = [list_operators, add, change, end_sessions, new_link, welcome]
DEPENDENCIES = {"roster": Provide(_roster, sync_to_thread=False)}
