"""A connection's deadline: one timer at most, checked against a deadline that moves.

Both sides of the gateway (the public listener's head and body limits, the upstream pool's read
timeout) arm, move and clear a deadline several times per request. Moving a float is cheap;
creating and cancelling an event-loop timer handle each time is not (it showed in profiles of
the listener), so a timer is only made when none is pending early enough, and when it fires it
looks at where the deadline is now.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class MovingDeadline:
    def __init__(self, loop: asyncio.AbstractEventLoop, expired: Callable[[], None]) -> None:
        self._loop = loop
        self._expired = expired
        """Called once the deadline passes (it may `arm` again to give more time)."""
        self._at: float | None = None
        self._timer: asyncio.TimerHandle | None = None

    @property
    def is_armed(self) -> bool:
        return self._at is not None

    def arm(self, seconds: float) -> None:
        at = self._loop.time() + seconds
        self._at = at
        if self._timer is not None and self._timer.when() > at:
            self._timer.cancel()
            self._timer = None
        if self._timer is None:
            self._timer = self._loop.call_at(at, self._check)

    def push(self, seconds: float) -> None:
        """Moves an armed deadline to `seconds` from now (activity); a cleared one stays cleared."""
        if self._at is not None:
            self._at = self._loop.time() + seconds

    def clear(self) -> None:
        self._at = None

    def cancel(self) -> None:
        """Cleared for good: the connection is gone."""
        self._at = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _check(self) -> None:
        self._timer = None
        if self._at is None:
            return
        if self._loop.time() < self._at:
            self._timer = self._loop.call_at(self._at, self._check)
            return
        self._at = None
        self._expired()
