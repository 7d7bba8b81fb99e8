"""The admin API of what is planned ahead: a skin's maintenance (set, end, list), the scheduled
changes (list, cancel) and the approvals (list, approve, reject). Each write says why (a reason,
3 to 500 characters) and goes to the trail; bad input is a field-level 422.
"""

from __future__ import annotations

import time
from typing import Any, TypeVar

import msgspec
from litestar import Request, delete, get, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath

from contracts.locales import LOCALES
from gateway.accounts import scopes
from gateway.accounts.audit import Action
from gateway.accounts.caller import Actor
from gateway.console.changes import reason_errors
from gateway.console.plans.intake import schedule_approved
from gateway.console.plans.running import carry_out
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, decoded_as, error, invalid
from gateway.maintenance.records import Approval, ApprovalState, public
from gateway.maintenance.schedule import at_errors
from gateway.maintenance.windows import MAX_AHEAD_S, Window
from gateway.parts import Gateway

MAX_MESSAGE = 500
B = TypeVar("B", bound=msgspec.Struct)


class WindowAsked(msgspec.Struct, forbid_unknown_fields=True):
    until: Any = None
    start: Any = msgspec.field(default=None, name="from")
    """None: now."""
    reason: str | None = None
    message: dict[str, str] | None = None


class Reasoned(msgspec.Struct, forbid_unknown_fields=True):
    reason: str | None = None


async def _body(request: Request[Any, Any, Any], kind: type[B]) -> B | list[FieldError]:
    return decoded_as(await request.body(), kind)


async def _reason(request: Request[Any, Any, Any], ctx: RequestContext) -> str | Outgoing:
    """The body's reason (3 to 500 characters), or the 422 that says what is wrong with it."""
    asked = await _body(request, Reasoned)
    errors = asked if isinstance(asked, list) else reason_errors(asked.reason)
    if errors or isinstance(asked, list):
        return invalid(ctx, errors)
    return (asked.reason or "").strip()


def window_errors(asked: WindowAsked, now: float) -> list[FieldError]:
    errors = reason_errors(asked.reason)
    if asked.until is None:
        errors.append(FieldError("until", "REQUIRED", "When it is expected to end"))
    else:
        errors += at_errors(asked.until, now, "until")
    if asked.start is not None:
        if isinstance(asked.start, bool) or not isinstance(asked.start, (int, float)):
            errors.append(FieldError("from", "TIME_INVALID", "A time in epoch seconds (null: now)"))
        elif asked.start > now + MAX_AHEAD_S:
            errors.append(FieldError("from", "TIME_TOO_FAR", "At most 30 days ahead"))
        elif not errors and asked.start >= asked.until:
            errors.append(FieldError("until", "TIME_BEFORE_START", "It must end after it starts"))
    for lang, text in (asked.message or {}).items():
        if lang not in LOCALES:
            errors.append(FieldError(f"message.{lang}", "UNKNOWN_LANGUAGE", f"Languages are {', '.join(LOCALES)}"))
        elif len(text) > MAX_MESSAGE:
            errors.append(FieldError(f"message.{lang}", "MESSAGE_TOO_LONG", f"At most {MAX_MESSAGE} characters"))
    return errors


@put("/admin/api/skins/{skin_id:str}/maintenance", opt={"role": "operator"})
async def set_maintenance(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
) -> Outgoing:
    """At once (`from` null or past) or from a time, until the expected end; replaces the skin's window."""
    ctx, now = RequestContext.of(request.scope), time.time()
    if all(skin.id != skin_id for skin in gateway.config.skins.all):
        return error(404, "UNKNOWN_SKIN", f"No skin {skin_id}", ctx)
    asked = await _body(request, WindowAsked)
    errors = asked if isinstance(asked, list) else window_errors(asked, now)
    if errors or isinstance(asked, list):
        await caller.record(
            "maintenance-set", "refused", None, skin=skin_id, detail={"errors": msgspec.to_builtins(errors)}
        )
        return invalid(ctx, errors)
    message = {lang: text.strip() for lang, text in (asked.message or {}).items() if text.strip()}
    start = max(now, asked.start) if asked.start is not None else now
    reason = caller.reason(asked.reason) or ""
    window = Window(skin_id, start, asked.until, reason, caller.operator.name, now, message)  # type: ignore[arg-type]
    before = gateway.plans.maintenance.window(skin_id)
    await gateway.plans.maintenance.set(window)
    after = window.public()
    await caller.record("maintenance-set", "ok", reason, skin=skin_id, before=before and before.public(), after=after)
    return Outgoing.json(200, {"maintenance": window.view(time.time())}, ctx)


@delete("/admin/api/skins/{skin_id:str}/maintenance", status_code=200, opt={"role": "operator"})
async def end_maintenance(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    reason = await _reason(request, ctx)
    if isinstance(reason, Outgoing):
        return reason
    ended = await gateway.plans.maintenance.end(skin_id)
    if ended is None:
        return error(404, "NO_MAINTENANCE", f"{skin_id} has no maintenance set", ctx)
    await caller.record("maintenance-end", "ok", reason, skin=skin_id, before=ended.public())
    return Outgoing.json(200, {"maintenance": None, "ended": ended.public()}, ctx)


@get("/admin/api/maintenance", opt={"role": "viewer"})
async def maintenance(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    """Every window not over yet (`active`: on now), by skin."""
    answer = {"skins": gateway.plans.maintenance.listed(time.time())}
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@get("/admin/api/scheduled", opt={"role": "viewer"})
async def list_scheduled(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    now = time.time()
    answer = {"scheduled": [public(item, now) for item in gateway.plans.schedule.listed()]}
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@delete("/admin/api/scheduled/{item_id:str}", status_code=200, opt={"role": "operator"})
async def cancel(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    item_id: FromPath[str],
) -> Outgoing:
    """Cancelled with a reason, unless it has run (or runs now): 409 `SCHEDULED_ENDED`."""
    ctx = RequestContext.of(request.scope)
    item = gateway.plans.schedule.get(item_id)
    if item is None:
        return error(404, "UNKNOWN_SCHEDULED", f"No scheduled change {item_id}", ctx)
    await scopes.require(request, [item.skin])
    reason = await _reason(request, ctx)
    if isinstance(reason, Outgoing):
        return reason
    who = caller.operator.name
    if item.state != "pending" or not await gateway.plans.schedule.claim(item, f"cancel {who}"):
        return error(409, "SCHEDULED_ENDED", f"{item_id} has run or is running: it cannot be cancelled", ctx)
    item = await gateway.plans.schedule.end(item, "cancelled", f"cancelled by {who}", who, reason)
    await caller.record("schedule-cancel", "ok", reason, skin=item.skin, target=item.upstream, detail={"id": item.id})
    return Outgoing.json(200, {"scheduled": public(item, time.time())}, ctx)


@get("/admin/api/approvals", opt={"role": "viewer"})
async def approvals(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    now = time.time()
    answer = {"approvals": [public(a, now) for a in gateway.plans.approvals.listed(now)]}
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@post("/admin/api/approvals/{approval_id:str}/{decision:str}", status_code=200, opt={"role": "operator"})
async def decide(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    approval_id: FromPath[str],
    decision: FromPath[str],
) -> Outgoing:
    """`approve` (it runs now, or is scheduled for its time) or `reject`, by another operator than the asker."""
    ctx, now = RequestContext.of(request.scope), time.time()
    approval = gateway.plans.approvals.get(approval_id)
    if decision not in ("approve", "reject") or approval is None:
        return error(404, "UNKNOWN_APPROVAL", f"No approval {approval_id} to {decision}", ctx)
    await scopes.require(request, [approval.skin])
    reason = await _reason(request, ctx)
    if isinstance(reason, Outgoing):
        return reason
    action: Action = "approval-approved" if decision == "approve" else "approval-rejected"
    target = {"skin": approval.skin, "target": approval.upstream}
    who = caller.operator.name
    if who == approval.by:
        await caller.record(action, "refused", reason, **target, detail={"id": approval.id, "askedBy": approval.by})
        return error(403, "SELF_APPROVAL", "A change needs another operator's approval than its asker's", ctx)
    if approval.state_at(now) != "pending" or not await gateway.plans.approvals.claim(approval, f"{decision} {who}"):
        return error(409, "APPROVAL_ENDED", f"{approval_id} is {approval.state_at(now)} already", ctx)
    outcome = await _carried_out(gateway, caller, approval) if decision == "approve" else None
    state: ApprovalState = "approved" if decision == "approve" else "rejected"
    approval = await gateway.plans.approvals.decide(approval, state, who, reason, outcome)
    detail = {"id": approval.id, "askedBy": approval.by, "decidedBy": who, "outcome": outcome}
    await caller.record(action, "ok", reason, **target, detail=detail)
    return Outgoing.json(200, {"approval": public(approval, time.time())}, ctx)


async def _carried_out(gateway: Gateway, caller: Actor, approval: Approval) -> str:
    """What became of an approved change: scheduled for its time, or run now on the asker's behalf."""
    if approval.at is not None and approval.at > time.time():
        item = await schedule_approved(gateway, approval)
        return f"scheduled {item.id}"
    done = await carry_out(gateway, caller.audit, approval)
    return done.result


route_handlers = [set_maintenance, end_maintenance, maintenance, list_scheduled, cancel, approvals, decide]
