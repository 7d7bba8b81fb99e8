"""Canary changes from the console and the bearer API: started, listed, paused, resumed,
promoted now and aborted, each with a reason, each audited.

A start is validated exactly as a change is (`gateway.console.changes`: the fields, the base URL
in its one spelling, the version it was made from, the platform's check and its override, the
probe), plus its steps (`STEPS_INVALID`) and thresholds (`THRESHOLD_INVALID`, field
`thresholds.<name>`). One live canary per skin: the record's compare-and-set lets exactly one of
two operators starting at once win; the other gets 409 `CANARY_RUNNING`. A canary that ended
answers its actions with 409 `CANARY_ENDED`. The moves nobody asked for (steps, rollback,
promotion) are the controller's (`gateway.canary.controller`).
"""

from __future__ import annotations

import math
import secrets
import time
from typing import Any

import msgspec
from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath

from gateway.accounts import scopes
from gateway.accounts.audit import AuditResult
from gateway.accounts.caller import Actor
from gateway.canary.model import DEFAULT_STEPS, Canary, Step, Thresholds
from gateway.canary.parts import Canaries
from gateway.config.history import Change
from gateway.config.live import Commit
from gateway.config.probe import probe_origins, said
from gateway.console import changes
from gateway.console.canaries.effects import detail, timeline
from gateway.console.contract import Override, contract
from gateway.console.operators import _decoded as decoded  # a body's fields, or the 422's errors
from gateway.console.plans.intake import Wanted, defer
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, error, invalid
from gateway.parts import Gateway

MAX_STEPS = 10
SHARES = ("maxErrorShare", "maxRefusalRise", "maxLoginDrop", "maxMoneyDrop")
"""The thresholds that are shares (0..1); `maxP99S` and `checkEveryS` are seconds, the rest counts."""


class Started(msgspec.Struct):
    """A canary's start as sent; `steps` and `thresholds` are checked here, field by field."""

    skin: str | None = None
    upstream: str | None = None
    url: str | None = None
    baseVersion: str | None = None
    reason: str | None = None
    steps: list[Any] | None = None
    thresholds: dict[str, Any] | None = None
    override: Override | None = None
    at: Any = None
    """A time to start at (epoch seconds; `gateway.console.plans.intake` checks it)."""


class Said(msgspec.Struct):
    reason: str | None = None


def steps_of(given: list[Any] | None) -> list[Step] | FieldError:
    """The steps asked (the defaults when none): shares strictly rising in (0, 1] up to 1, each held >= 1 s."""
    if given is None:
        return list(DEFAULT_STEPS)
    try:
        steps = msgspec.convert(given, list[Step])
    except msgspec.ValidationError as exc:
        return FieldError("steps", "STEPS_INVALID", f"Each step is {{share, holdS}}: {exc}")
    shares = [step.share for step in steps]
    if not 1 <= len(steps) <= MAX_STEPS:
        return FieldError("steps", "STEPS_INVALID", f"From 1 to {MAX_STEPS} steps")
    if any(not 0 < share <= 1 for share in shares) or shares != sorted(set(shares)) or shares[-1] != 1:
        return FieldError("steps", "STEPS_INVALID", "Shares rise strictly, each in (0, 1], the last is 1")
    if any(not math.isfinite(step.hold_s) or step.hold_s < 1 for step in steps):
        return FieldError("steps", "STEPS_INVALID", "Each step is held 1 s or more")
    return steps


def thresholds_of(given: dict[str, Any] | None) -> Thresholds | list[FieldError]:
    """The defaults with what was asked: each one that cannot be met is its own field's error."""
    errors = [FieldError(f"thresholds.{name}", "THRESHOLD_INVALID", why) for name, why in _wrong(given or {})]
    return errors if errors else msgspec.convert(given or {}, Thresholds)


def _wrong(given: dict[str, Any]) -> list[tuple[str, str]]:
    known = set(msgspec.to_builtins(Thresholds()))
    wrong = []
    for name, value in given.items():
        counts = name in ("minAnswers", "failedChecks")
        if name not in known:
            wrong.append((name, "No such threshold"))
        elif isinstance(value, bool) or not isinstance(value, int if counts else (int, float)):
            wrong.append((name, "A whole number" if counts else "A number"))
        elif not math.isfinite(value) or value < 0:
            wrong.append((name, "Not negative"))
        elif name == "maxP99S" and value <= 0:
            wrong.append((name, "A p99 over 0 s"))
        elif name in SHARES and value > 1:
            wrong.append((name, "A share from 0 to 1"))
        elif (name == "failedChecks" and value < 1) or (name == "checkEveryS" and value < 1):
            wrong.append((name, "At least 1"))
    return wrong


def public(canary: Canary) -> dict[str, Any]:
    """The record as the admin API answers it, with the share it sends to the new upstream now."""
    return {**msgspec.to_builtins(canary), "share": canary.share}


def running(gateway: Gateway, ctx: RequestContext) -> Canaries | Outgoing:
    if gateway.canaries is None:
        return error(503, "NO_CANARIES", "This gateway runs no canaries", ctx)
    return gateway.canaries


# --- start --------------------------------------------------------------------------------


def start_errors(gateway: Gateway, started: Started, asked: changes.Asked) -> list[FieldError]:
    errors = changes.base_errors(asked) + changes.reason_errors(asked.reason) + changes.override_errors(asked)
    if started.url is None:
        errors.append(FieldError("url", "REQUIRED", "The new base URL the canary proves"))
    else:
        errors += changes.change_errors(gateway, asked)
    if isinstance(steps := steps_of(started.steps), FieldError):
        errors.append(steps)
    if isinstance(thresholds := thresholds_of(started.thresholds), list):
        errors += thresholds
    return errors


async def refusal(gateway: Gateway, asked: changes.Asked, change: Change, ctx: RequestContext) -> Outgoing | None:
    """Why the change cannot start now, as a change would be refused: its skin moved since its
    version (409), its new base URL breaks the platform's contract or does not answer (422)."""
    base = asked.baseVersion
    moved = await gateway.config.moved_skins(base, [change.skin])
    if moved is None or moved:
        now = gateway.config.version
        answer, _ = await changes.respond_to_commit(
            gateway, Commit("conflict", now, now, moved=moved or []), base, "url", ctx
        )
        return answer
    current = msgspec.structs.replace(asked, baseVersion=gateway.config.version)  # not stale: checked above
    refused, _ = await contract(gateway, current, [change], "url")
    if not refused and gateway.config.probe is not None:
        down = await probe_origins(gateway.config.probe, [(change.skin, change.upstream, change.after or "")])
        refused = [FieldError("url", "URL_UNREACHABLE", said(down))] if down else []
    return invalid(ctx, refused) if refused else None


@post("/admin/api/canaries", status_code=201, opt={"role": "operator"})
async def start_canary(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], caller: NamedDependency[Actor]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    started = decoded(await request.body(), Started)
    if isinstance(started, list):
        return invalid(ctx, started)
    await scopes.require(request, [started.skin])
    return await start(gateway, caller, started, ctx)


async def start(
    gateway: Gateway, caller: Actor, started: Started, ctx: RequestContext, *, now: bool = False
) -> Outgoing:
    """A canary's start, checked; with `at`, or on a skin whose changes need a second operator, kept
    for later (`gateway.console.plans.intake`), unless it runs `now` (kept, and its time came)."""
    asked = changes.Asked(
        started.skin, started.upstream, started.url, None, started.baseVersion, started.reason, started.override
    )
    target = {"skin": started.skin, "target": started.upstream}
    if errors := start_errors(gateway, started, asked):
        await caller.record("canary-start", "refused", asked.reason, **target, detail={"errors": errors})
        return invalid(ctx, errors)
    if isinstance(canaries := running(gateway, ctx), Outgoing):
        return canaries
    assert asked.skin and asked.upstream and isinstance(asked.url, str)
    wanted = Wanted(kind="canary", **target_of(asked), at=started.at, asked=msgspec.to_builtins(started))
    if not now and (later := await defer(gateway, caller, wanted, ctx)) is not None:
        return later
    return await begin(gateway, caller, canaries, started, asked, ctx)


def target_of(asked: changes.Asked) -> dict[str, Any]:
    return {"skin": asked.skin, "upstream": asked.upstream, "url": asked.url, "reason": asked.reason}


async def begin(
    gateway: Gateway, caller: Actor, canaries: Canaries, started: Started, asked: changes.Asked, ctx: RequestContext
) -> Outgoing:
    """The checked start, made: unless a scheduled change would land during it, the skin moved since
    its version, the new URL fails its checks, or another canary won the skin."""
    assert asked.skin and asked.upstream and isinstance(asked.url, str)
    target = {"skin": asked.skin, "target": asked.upstream}
    before = gateway.config.current.skins.bases()[asked.skin][asked.upstream]
    change = Change(asked.skin, asked.upstream, before, asked.url.rstrip("/"))
    steps = steps_of(started.steps)
    lasts_s = sum(step.hold_s for step in steps) if isinstance(steps, list) else 0.0
    if canaries.due_for is not None and await canaries.due_for(asked.skin, time.time() + lasts_s) is not None:
        await caller.record("canary-start", "conflict", asked.reason, **target, detail={"code": "SCHEDULED_CHANGE_DUE"})
        return error(409, "SCHEDULED_CHANGE_DUE", f"A scheduled change of {asked.skin} is due: it runs first", ctx)
    if (refused := await refusal(gateway, asked, change, ctx)) is not None:
        outcome: AuditResult = "conflict" if refused.status == 409 else "refused"
        await caller.record("canary-start", outcome, asked.reason, **target, before=before, after=change.after)
        return refused
    canary = _new(gateway, caller, asked, change, started)
    won, live = await canaries.store.start(canary)
    if not won:
        await caller.record("canary-start", "conflict", asked.reason, **target, detail={"running": live.id})
        return error(409, "CANARY_RUNNING", f"{live.skin} has a live canary ({live.id}) of {live.upstream}", ctx)
    await caller.record(
        "canary-start", "ok", asked.reason, **target, before=before, after=change.after, detail=detail(live)
    )
    await timeline(gateway, live, "started", caller.reason(asked.reason))
    return Outgoing.json(201, {"canary": public(live)}, ctx)


async def run_scheduled(gateway: Gateway, caller: Actor, asked: dict[str, Any], ctx: RequestContext) -> Outgoing:
    """A canary kept for later (scheduled, or approved), started now: checked again as when asked."""
    started = msgspec.convert(asked, Started)
    started.at = None
    return await start(gateway, caller, started, ctx, now=True)


def _new(gateway: Gateway, caller: Actor, asked: changes.Asked, change: Change, started: Started) -> Canary:
    steps, thresholds = steps_of(started.steps), thresholds_of(started.thresholds)
    assert isinstance(steps, list) and isinstance(thresholds, Thresholds) and change.after
    now = time.time()
    return Canary(
        id=f"{change.skin}-{secrets.token_hex(4)}", skin=change.skin, upstream=change.upstream,
        before=change.before or "", after=change.after, steps=steps, thresholds=thresholds,
        started=now, step_started=now, started_by=caller.operator.name, reason=caller.reason(asked.reason) or "",
        base_version=gateway.config.version,
    )  # fmt: skip


# --- reading ------------------------------------------------------------------------------


@get("/admin/api/canaries", opt={"role": "viewer"})
async def list_canaries(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    """Every skin's live canary first (newest first), then each skin's last ended one."""
    ctx = RequestContext.of(request.scope)
    if isinstance(canaries := running(gateway, ctx), Outgoing):
        return canaries
    await canaries.store.refresh()
    found = sorted(canaries.board.all(), key=lambda c: (not c.live, -c.started))
    return Outgoing.json(200, {"canaries": [public(c) for c in found]}, ctx)


@get("/admin/api/canaries/{canary_id:str}", opt={"role": "viewer"})
async def read_canary(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], canary_id: FromPath[str]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if isinstance(canaries := running(gateway, ctx), Outgoing):
        return canaries
    if (canary := await canaries.store.find(canary_id)) is None:
        return error(404, "CANARY_NOT_FOUND", f"No canary {canary_id}", ctx)
    return Outgoing.json(200, {"canary": public(canary)}, ctx)


def live_ones(gateway: Gateway) -> list[dict[str, Any]]:
    """The status line's running (or paused) canaries, from this instance's board (no I/O)."""
    if gateway.canaries is None:
        return []
    live = [c for c in gateway.canaries.board.all() if c.live]
    return [
        {"id": c.id, "skin": c.skin, "upstream": c.upstream, "state": c.state, "step": c.step, "share": c.share}
        for c in live
    ]


route_handlers = [start_canary, list_canaries, read_canary]
