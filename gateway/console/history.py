"""The configuration's history in the console: every version, who made it, when, why and what it
changed (`gateway.config.history` keeps them), and going back to any of them in one step.

A rollback restores that version's overrides (the operators' changes) onto today's skins file;
when the file changed since, the answer says so (`fileDiffers`). It is previewed, probed, checked
against the platform's contract (overridden with a reason, or refused),
versioned (a conflict when a skin it touches moved on since `baseVersion`) and audited as a
change is (`gateway.console.changes`).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import msgspec
from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath

from gateway.accounts import scopes
from gateway.accounts.caller import Actor
from gateway.config.history import Change, HistoryEntry, diff, is_setting
from gateway.config.skins import compose
from gateway.console.answers.versions import HistoryPage, shown
from gateway.console.changes import (
    Asked,
    asked_in,
    base_errors,
    canary_busy,
    host_errors,
    override_errors,
    preview,
    reason_errors,
    respond_to_commit,
)
from gateway.console.contract import contract
from gateway.console.plans.intake import Wanted, defer
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, error, invalid
from gateway.parts import Gateway

ENTRY_ID = re.compile(r"^\d+-\d+$")
MAX_PAGE = 500


@get("/admin/api/history", opt={"role": "viewer"})
async def history(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    """Newest first; `before`: an entry's id (the previous page's `next`) or a version."""
    ctx = RequestContext.of(request.scope)
    limit, before = request.query_params.get("limit", "50"), request.query_params.get("before") or None
    if not limit.isdigit() or not 1 <= int(limit) <= MAX_PAGE:
        return invalid(ctx, [FieldError("limit", "OUT_OF_RANGE", f"A whole number from 1 to {MAX_PAGE}")])
    versions = gateway.config.versions
    if before is not None and not ENTRY_ID.match(before):
        found = await versions.find(before)
        if found is None:
            return invalid(ctx, [FieldError("before", "UNKNOWN_VERSION", f"No version {before} in the history")])
        before = found.id
    page = await versions.page(int(limit), before)
    answer = HistoryPage(
        gateway.config.version, [shown(entry) for entry in page], page[-1].id if len(page) == int(limit) else None
    )
    return Outgoing.json(200, answer, ctx)


@get("/admin/api/history/{version:str}", opt={"role": "viewer"})
async def one_version(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], version: FromPath[str]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    found = await gateway.config.versions.find(version)
    if found is None:
        return error(404, "UNKNOWN_VERSION", f"No version {version} in the history", ctx)
    return Outgoing.json(200, shown(found), ctx)


async def rollback_target(gateway: Gateway, asked: Asked) -> tuple[HistoryEntry, list[Change]] | list[FieldError]:
    """The version to go back to and what going back changes, or the fields at fault."""
    errors = base_errors(asked)
    if not asked.to:
        return [*errors, FieldError("to", "REQUIRED", "The version to go back to")]
    entry = await gateway.config.versions.find(asked.to)
    if entry is None:
        return [*errors, FieldError("to", "UNKNOWN_VERSION", f"No version {asked.to} in the history")]
    current = gateway.config.current
    changes = diff(current.skins.state(), compose(current.data, entry.overrides, "rollback").state())
    if not changes:
        errors.append(FieldError("to", "UNCHANGED", f"Going back to {asked.to} changes no upstream"))
    for change in (c for c in changes if not is_setting(c.upstream)):  # a URL no longer allowed (hosts narrowed)
        errors += host_errors(gateway, change.skin, change.after, "to") if change.after else []
    return errors or (entry, changes)


@post("/admin/api/rollback/preview", status_code=200, opt={"role": "operator"})
async def preview_rollback(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = await asked_in(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    target = await rollback_target(gateway, asked)
    if isinstance(target, list):
        return invalid(ctx, target)
    entry, changes = target
    await scopes.require(request, [c.skin for c in changes])
    differs = entry.file != gateway.config.current.file
    return await preview(gateway, asked.baseVersion or "", changes, ctx, to=entry.version, file_differs=differs)


@post("/admin/api/rollback", status_code=200, opt={"role": "operator"})
async def rollback(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], caller: NamedDependency[Actor]
) -> Outgoing:
    """Made now; with `at`, or touching a skin that needs a second operator, kept for later
    (`gateway.console.plans.intake`)."""
    ctx = RequestContext.of(request.scope)
    asked = await asked_in(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    target = await _valid_target(gateway, caller, asked, ctx)
    if isinstance(target, Outgoing):
        return target
    _, changes = target
    skins = sorted({c.skin for c in changes})
    await scopes.require(request, skins)
    wanted = Wanted(kind="rollback", skin=skins[0], reason=asked.reason, at=asked.at, asked=msgspec.to_builtins(asked))
    later = await defer(gateway, caller, wanted, ctx, skins)
    return later if later is not None else await rolled_back(gateway, caller, asked, target, ctx)


async def run_rollback(gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext) -> Outgoing:
    """A rollback kept for later, now: its target found and checked again, then made."""
    target = await _valid_target(gateway, caller, asked, ctx)
    return target if isinstance(target, Outgoing) else await rolled_back(gateway, caller, asked, target, ctx)


async def _valid_target(
    gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext
) -> tuple[HistoryEntry, list[Change]] | Outgoing:
    target = await rollback_target(gateway, asked)
    errors = [*(target if isinstance(target, list) else []), *reason_errors(asked.reason), *override_errors(asked)]
    if errors or isinstance(target, list):
        detail = {"errors": msgspec.to_builtins(errors)}
        await caller.record("rollback", "refused", asked.reason, target=asked.to, detail=detail)
        return invalid(ctx, errors)
    return target


async def rolled_back(
    gateway: Gateway, caller: Actor, asked: Asked, target: tuple[HistoryEntry, list[Change]], ctx: RequestContext
) -> Outgoing:
    """A valid rollback: held to the platform's contract, then made the new version (or refused)."""
    entry, changes = target
    if (busy := canary_busy(gateway, sorted({c.skin for c in changes}), ctx)) is not None:
        code = {"code": "CANARY_RUNNING"}
        await caller.record("rollback", "conflict", asked.reason, target=entry.version, detail=code)
        return busy
    refused, checked = await contract(gateway, asked, changes, "to")
    if refused:
        detail = {"errors": msgspec.to_builtins(refused), "contract": checked}
        await caller.record("rollback", "refused", asked.reason, target=entry.version, detail=detail)
        return invalid(ctx, refused)
    current = gateway.config.current
    made = await gateway.config.commit(
        lambda _: copy.deepcopy(entry.overrides),
        base=asked.baseVersion,
        author=caller.author(asked.reason),
        action="rollback",
    )
    differs = entry.file != current.file
    more = {"to": entry.version, "fileDiffers": differs}
    answer, outcome = await respond_to_commit(
        gateway, made, asked.baseVersion, "to", ctx, to=entry.version, file_differs=differs
    )
    versions = {"before": current.version, "after": made.version}
    detail = {"changes": msgspec.to_builtins(made.changes), "contract": checked, **more}
    await caller.record("rollback", outcome, asked.reason, target=entry.version, **versions, detail=detail)
    return answer


route_handlers = [history, one_version, preview_rollback, rollback]
