"""The canaries' parts, made once by the composition root (`make_canaries`) and attached to the
`Gateway`: the records and the board every instance routes by, the figures, the controller. What
the controller does outside its records (the configuration, the audit trail, the timeline) is
given when the app starts (`gateway.console.canaries.effects`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from gateway.canary.controller import Controller, Effects, Lease
from gateway.canary.figures import CanaryFigures
from gateway.canary.store import CanaryBoard, CanaryStore
from gateway.config.live import LiveConfig
from gateway.store import Shared

DueFor = Callable[[str, float], Awaitable[object | None]]
"""A skin's scheduled change due before a time (`gateway.maintenance.schedule.Schedule.due_for`): a
canary that would still be judged then does not start."""


@dataclass
class Canaries:
    store: CanaryStore
    controller: Controller
    figures: CanaryFigures
    """Both sides' figures, counted on the access path (`gateway.canary.figures`)."""
    due_for: DueFor | None = None

    @property
    def board(self) -> CanaryBoard:
        return self.store.board

    def start(self, effects: Effects, *, judges: bool = True) -> list[asyncio.Task[None]]:
        """The listener and (when this instance `judges`) the controller acting through `effects`,
        for the app's lifespan to cancel."""
        self.controller.effects = effects
        tasks = [asyncio.ensure_future(self.store.listen())]
        return [*tasks, asyncio.ensure_future(self.controller.drive())] if judges else tasks


def make_canaries(
    shared: Shared, redis: Redis | None, config: LiveConfig, spawn: Callable[[Coroutine[Any, Any, Any]], None]
) -> Canaries:
    """The records in `shared` (announced through `redis`), the board, the figures (written off
    the request by `spawn`) and the controller."""
    board = CanaryBoard()
    store = CanaryStore(shared, redis, board, lambda: [skin.id for skin in config.skins.all])
    figures = CanaryFigures(redis, spawn)
    return Canaries(store, Controller(store, figures, Lease(shared)), figures)
