"""A change that does not run at once: given a time (`at`), it is scheduled (202 `{scheduled}`);
on a skin whose entry says `approval = true`, it waits for a second operator (202 `{approval}`,
and once approved it runs, or is scheduled when it had a time). What it asks is checked field by
field first (the change's own checks, then `at`), so a refusal comes now, not at its time.

The change, the rollback and the canary start call `defer` once their fields are valid; it
answers None when the request is to run now.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import msgspec

from gateway.accounts.audit import Action, AuditResult
from gateway.accounts.roles import Operator
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, invalid
from gateway.maintenance.records import APPROVAL_EXPIRES_S, Approval, Item, Kind, new_id, public
from gateway.maintenance.schedule import APART_S, at_errors
from gateway.parts import Gateway


class Asker(Protocol):
    """Who asks, and the trail (`gateway.accounts.caller.Actor`)."""

    @property
    def operator(self) -> Operator: ...

    def reason(self, given: str | None) -> str | None: ...

    async def record(self, action: Action, outcome: AuditResult, reason: str | None, **fields: Any) -> None: ...


class Wanted(msgspec.Struct, kw_only=True):
    """What the request asks, as the record keeps it."""

    kind: Kind
    skin: str
    upstream: str | None = None
    url: str | None = None
    reason: str | None = None
    at: Any = None
    """As sent: epoch seconds, checked here."""
    asked: dict[str, Any]


def needs_approval(gateway: Gateway, skins: list[str]) -> bool:
    return any(skin.approval for skin in gateway.config.skins.all if skin.id in skins)


async def defer(
    gateway: Gateway, caller: Asker, wanted: Wanted, ctx: RequestContext, skins: list[str] | None = None
) -> Outgoing | None:
    """202 with what was kept (scheduled, or waiting for approval), a 422 for a bad `at`, or None:
    run it now. `skins`: every skin it touches (a rollback's), when more than `wanted.skin`."""
    approval = needs_approval(gateway, skins or [wanted.skin])
    if wanted.at is None and not approval:
        return None
    now, who = time.time(), caller.operator
    errors = at_errors(wanted.at, now) if wanted.at is not None else []
    plans = gateway.plans
    if not errors and wanted.at is not None and plans.schedule.overlapping(wanted.skin, wanted.upstream, wanted.at):
        errors = [FieldError("at", "TIME_OVERLAPS", f"Another change on it is due within {APART_S // 60} minutes")]
    target = {"skin": wanted.skin, "target": wanted.upstream or wanted.asked.get("to")}
    if errors:
        await caller.record(
            "schedule", "refused", wanted.reason, **target, detail={"errors": msgspec.to_builtins(errors)}
        )
        return invalid(ctx, errors)
    fields = _fields(wanted, who, caller.reason(wanted.reason) or "", now)
    if approval:
        waiting = Approval(**fields, at=wanted.at, expires=now + APPROVAL_EXPIRES_S, id=new_id("a"))
        await plans.approvals.add(waiting)
        await caller.record("approval-asked", "ok", wanted.reason, **target, detail={"id": waiting.id, "at": wanted.at})
        return Outgoing.json(202, {"approval": public(waiting, now)}, ctx)
    item = Item(**fields, at=wanted.at, id=new_id("s"))
    await plans.schedule.add(item)
    await caller.record("schedule", "ok", wanted.reason, **target, detail={"id": item.id, "at": wanted.at})
    return Outgoing.json(202, {"scheduled": public(item, now)}, ctx)


def _fields(wanted: Wanted, who: Operator, reason: str, now: float) -> dict[str, Any]:
    return {
        "kind": wanted.kind,
        "skin": wanted.skin,
        "upstream": wanted.upstream,
        "url": wanted.url,
        "by": who.name,
        "via": who.via,
        "reason": reason,
        "asked": {k: v for k, v in wanted.asked.items() if k != "at"},
        "created": now,
    }


async def schedule_approved(gateway: Gateway, approval: Approval) -> Item:
    """An approved change that had a time: now scheduled (its time checked again by the runner)."""
    assert approval.at is not None
    fields = _fields(
        Wanted(
            kind=approval.kind, skin=approval.skin, upstream=approval.upstream, url=approval.url, asked=approval.asked
        ),
        Operator(approval.by, "operator", "token" if approval.via == "token" else "console"),
        approval.reason,
        time.time(),
    )
    item = Item(**fields, at=approval.at, id=new_id("s"))
    await gateway.plans.schedule.add(item)
    return item
