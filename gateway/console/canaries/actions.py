"""An operator's moves of a live canary, each with a reason and audited: pause (nothing is judged
and no step moves; its players keep their sides), resume (the paused time does not count in the
step's hold), promote now (the change becomes the skin's configuration version at once) and abort
(its new side gets no more sessions, and its sessions sign in again on the old one)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from litestar import Request, post
from litestar.di import NamedDependency
from litestar.params import FromPath

from gateway.accounts import scopes
from gateway.accounts.caller import Actor
from gateway.canary.model import Canary
from gateway.canary.parts import Canaries
from gateway.console import changes
from gateway.console.canaries.effects import ACTIONS, detail, timeline
from gateway.console.canaries.start import Said, public, running
from gateway.console.operators import _decoded as decoded
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import error, invalid
from gateway.parts import Gateway

Act = Callable[[Canaries, Canary, str, str], Awaitable[Canary | None]]
"""A move: (the canaries, the live record, who, why) -> the record after it (None: it ended meanwhile)."""


async def _pause(canaries: Canaries, seen: Canary, who: str, why: str) -> Canary | None:
    def paused(known: Canary) -> Canary | None:
        if known.id != seen.id or not known.live:
            return None
        if known.state == "paused":
            return known  # paused since then: the time it has been is kept
        return msgspec.structs.replace(known, state="paused", last_check=time.time())  # when it paused

    return await canaries.store.update(seen.skin, paused)


async def _resume(canaries: Canaries, seen: Canary, who: str, why: str) -> Canary | None:
    def resumed(known: Canary) -> Canary | None:
        if known.id != seen.id or not known.live:
            return None
        if known.state == "running":
            return known
        now = time.time()
        paused_s = now - known.last_check  # the pause set it: the paused time is not held
        return msgspec.structs.replace(
            known, state="running", step_started=known.step_started + paused_s, last_check=now
        )

    return await canaries.store.update(seen.skin, resumed)


async def _promote(canaries: Canaries, seen: Canary, who: str, why: str) -> Canary | None:
    return await canaries.controller.promote(seen, who, why)


async def _abort(canaries: Canaries, seen: Canary, who: str, why: str) -> Canary | None:
    return await canaries.controller.end(seen, "aborted", why, who=who)


async def act(
    request: Request[Any, Any, Any], gateway: Gateway, caller: Actor, canary_id: str, move: str, act: Act
) -> Outgoing:
    """One move of the canary `canary_id`, with the reason its body gives, audited whatever became of it."""
    ctx = RequestContext.of(request.scope)
    said = decoded(await request.body(), Said)
    if isinstance(canaries := running(gateway, ctx), Outgoing):
        return canaries
    if (seen := await canaries.store.find(canary_id)) is None:
        return error(404, "CANARY_NOT_FOUND", f"No canary {canary_id}", ctx)
    await scopes.require(request, [seen.skin])
    action, target = ACTIONS[move], {"skin": seen.skin, "target": seen.upstream}
    errors = said if isinstance(said, list) else changes.reason_errors(said.reason)
    reason = None if isinstance(said, list) else said.reason
    if errors:
        await caller.record(action, "refused", reason, **target, detail={"canary": seen.id, "errors": errors})
        return invalid(ctx, errors)
    why = caller.reason(reason) or ""
    moved = await act(canaries, seen, caller.operator.name, why) if seen.live else None
    if moved is None:
        ended = await canaries.store.find(canary_id) or seen
        await caller.record(action, "conflict", reason, **target, detail={"canary": seen.id, "state": ended.state})
        return error(409, "CANARY_ENDED", f"The canary {seen.id} has ended: {ended.state}", ctx)
    await caller.record(action, "ok", reason, **target, before=seen.before, after=seen.after, detail=detail(moved))
    await timeline(gateway, moved, move, why)
    return Outgoing.json(200, {"canary": public(moved)}, ctx)


def _route(move: str, path: str, do: Act) -> Any:
    @post(
        f"/admin/api/canaries/{{canary_id:str}}/{path}",
        status_code=200,
        opt={"role": "operator"},
        name=f"canary-{path}",
    )
    async def handler(
        request: Request[Any, Any, Any],
        gateway: NamedDependency[Gateway],
        caller: NamedDependency[Actor],
        canary_id: FromPath[str],
    ) -> Outgoing:
        return await act(request, gateway, caller, canary_id, move, do)

    return handler


route_handlers = [
    _route("paused", "pause", _pause),
    _route("resumed", "resume", _resume),
    _route("promoted", "promote", _promote),
    _route("aborted", "abort", _abort),
]
