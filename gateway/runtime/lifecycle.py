"""The process's life as requests see it: whether it is draining (SIGTERM), and the work that
outlives a request (a cache refresh, retiring connections) kept referenced until done."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


class Lifecycle:
    def __init__(self) -> None:
        self.draining = False
        """SIGTERM received: not ready any more, connections closed after their answer."""
        self.on_drain: list[Callable[[], None]] = []
        """Told once the drain starts (the instance's record says it drains)."""
        self._tasks: set[asyncio.Task[Any]] = set()

    def drain(self) -> None:
        """SIGTERM: from now on this instance drains."""
        self.draining = True
        for told in self.on_drain:
            told()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Work that outlives the request, kept referenced until done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self, within_s: float = 0.0) -> None:
        """Lets background work finish for up to `within_s`, then cancels it."""
        if self._tasks and within_s > 0:
            await asyncio.wait(list(self._tasks), timeout=within_s)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
