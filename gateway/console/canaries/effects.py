"""What the canary controller does outside its records: promote to a configuration version, write
its moves in the audit trail (as `system` via `canary`) and on the event timeline."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import structlog

from gateway.accounts.audit import Action, AuditEntry
from gateway.canary.model import Canary
from gateway.config.history import Author
from gateway.console.changes import Asked, overridden
from gateway.monitoring.events import TimelineEntry
from gateway.parts import Gateway
from gateway.store import StoreUnavailable

log = structlog.get_logger("gateway.canary")

ACTIONS: dict[str, Action] = {
    "started": "canary-start",
    "step": "canary-step",
    "paused": "canary-pause",
    "resumed": "canary-resume",
    "promoted": "canary-promote",
    "rolled-back": "canary-rollback",
    "aborted": "canary-abort",
}
"""A canary's move, and its action in the audit trail (its timeline entry is `canary.<move>`)."""
SYSTEM, VIA = "system", "canary"
"""Who made the moves nobody asked for, and through what."""


class GatewayEffects:
    """The controller's hands (`gateway.canary.controller.Effects`)."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway

    def base(self, skin: str, upstream: str) -> str | None:
        return self.gateway.config.current.skins.bases().get(skin, {}).get(upstream)

    async def promote(self, canary: Canary, reason: str) -> tuple[str | None, str | None]:
        """The canary's new base URL made the skin's, as a change of the operator would be (no probe:
        the canary's players have been calling it)."""
        asked = Asked(skin=canary.skin, upstream=canary.upstream, url=canary.after)
        author = Author(SYSTEM, VIA, f"canary {canary.id}: {reason}")
        config = self.gateway.config
        made = await config.commit(overridden(self.gateway, asked), base=None, author=author, probe=False)
        if made.result in ("applied", "unchanged"):  # unchanged: a holder killed right after its commit
            return made.version, None
        return None, made.error or made.result

    async def told(self, canary: Canary, what: str, who: str, reason: str | None) -> None:
        if self.gateway.audit is not None:
            entry = AuditEntry(
                ACTIONS[what], who, VIA, None, "ok", skin=canary.skin, target=canary.upstream, reason=reason,
                before=canary.before, after=canary.after, detail=detail(canary),
            )  # fmt: skip
            await self.gateway.audit.record(entry)
        await timeline(self.gateway, canary, what, reason)


def start_canaries(gateway: Gateway) -> list[asyncio.Task[None]]:
    """The canaries' listener and controller, acting on `gateway`, for its lifespan to cancel. Only
    an instance with the audit trail (the admin listener's) judges: every move the controller makes
    is audited."""
    if gateway.canaries is None:
        return []
    return gateway.canaries.start(GatewayEffects(gateway), judges=gateway.audit is not None)


def detail(canary: Canary) -> dict[str, Any]:
    """What an audit entry of a canary's move says of it."""
    return {"canary": canary.id, "step": canary.step + 1, "share": canary.share, "state": canary.state}


async def timeline(gateway: Gateway, canary: Canary, what: str, reason: str | None) -> None:
    """The move on the event timeline (`canary.<move>`), when this instance keeps one."""
    if gateway.watch is None:
        return
    events = gateway.watch.timeline
    event = TimelineEntry(f"canary.{what}", time.time(), events.instance, canary.skin, canary.upstream, detail=reason)
    try:
        await events.write(event)
    except StoreUnavailable as exc:
        log.warning("canary.timeline_unavailable", canary=canary.id, error=str(exc))
