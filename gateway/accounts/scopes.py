"""Skin limits: an operator (or token) whose `skins` names some skins may change only those.

Reading is not limited (the console shows every skin); changing is, on the server whatever the
UI shows: `SkinGuard` runs after the role guard on every admin route and refuses a route whose
path names another skin (`{skin_id}`: upstream changes, purge, revoke) or that touches every
skin (`opt={"skins": "every"}`: reload); a handler whose body names the skins (a change, its
preview, a rollback and its preview) calls `require` with them. A refusal is 403 `SKIN_FORBIDDEN`
naming the skin, and an audit entry (`skin-refused`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from gateway.accounts.audit import Audit, AuditEntry
from gateway.accounts.roles import Operator, Refused

EVERY = "every"
"""`opt={"skins": EVERY}`: the route touches every skin (only an unlimited operator may)."""


def outside(operator: Operator, skins: Iterable[str | None]) -> list[str]:
    """The skins named that `operator` may not change (sorted; none when they have no limit)."""
    if not operator.skins:
        return []
    return sorted({skin for skin in skins if skin is not None and skin not in operator.skins})


@dataclass(frozen=True)
class Scope:
    """The caller and the trail a refusal is written to, for the handlers' `require`."""

    operator: Operator
    audit: Audit

    async def refuse(self, skins: list[str], where: str) -> Refused:
        who = self.operator
        detail = {"path": where, "skins": skins, "allowed": list(who.skins)}
        await self.audit.record(
            AuditEntry("skin-refused", who.name, who.via, who.address, "refused", skin=skins[0], detail=detail)
        )
        named = ", ".join(skins) if skins != [EVERY] else "every skin"
        allowed = ", ".join(who.skins)
        return Refused(403, "SKIN_FORBIDDEN", f"You may change only {allowed}, not {named}", skin=skins[0])


class SkinGuard:
    """The admin app's second guard (after `roles.AdminGuard`, which put the caller on the scope)."""

    def __init__(self, audit: Audit) -> None:
        self.audit = audit

    async def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        found = cast("dict[str, Any]", connection.scope).get("operator")
        if not isinstance(found, Operator):
            return  # a public route
        scope = Scope(found, self.audit)
        cast("dict[str, Any]", connection.scope)["skin_scope"] = scope
        if not found.skins:
            return
        every = handler.opt.get("skins") == EVERY
        named = [EVERY] if every else outside(found, [connection.path_params.get("skin_id")])
        if named:
            raise await scope.refuse(named, connection.url.path)


async def require(request: Request[Any, Any, Any], skins: Iterable[str | None]) -> None:
    """Refuses (403, audited) unless the caller may change every one of `skins`."""
    scope = cast("Scope", request.scope["skin_scope"])  # type: ignore[typeddict-item]
    if named := outside(scope.operator, skins):
        raise await scope.refuse(named, request.url.path)
