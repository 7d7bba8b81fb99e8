"""A skin's maintenance: from a time (now, or later) until an expected end, with a message per
language for the players.

While it is on, the player site shows its maintenance page (the skin's public description says
so, `Skin.public`'s `maintenance`), and the money calls and sign-ins are refused
(`gateway.pipeline.maintenance`); the console keeps working. Whether it is on is a matter of the
clock (`start <= now < until`), read from memory: a window set for later needs no one to switch it
on, and one past its end is over by itself.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from contracts.catalogue import MONEY_CALLS, Route
from contracts.locales import Locale
from gateway.maintenance.shelf import Shelf

MAX_AHEAD_S = 30 * 86400
"""How far ahead a window may start or end (and a change be scheduled): a month."""


class Window(msgspec.Struct, rename="camel", frozen=True):
    skin: str
    start: float = msgspec.field(name="from")
    until: float
    reason: str
    by: str
    at: float
    """When it was set."""
    message: dict[Locale, str] = {}

    def on(self, now: float) -> bool:
        return self.start <= now < self.until

    def public(self) -> dict[str, Any]:
        """What the console reads (every field, epoch seconds)."""
        return msgspec.to_builtins(self)  # type: ignore[no-any-return]

    def view(self, now: float) -> WindowView:
        """What the console reads: every field, epoch seconds, and whether it is on."""
        return WindowView(**msgspec.structs.asdict(self), active=self.on(now))

    def for_players(self) -> dict[str, Any]:
        """What the player site reads: the expected end and the message, never who or why."""
        return {"until": self.until, "message": dict(self.message) or None}


class WindowView(Window, kw_only=True, frozen=True):
    """A window as the console lists it."""

    active: bool
    """On now (else still to come)."""


def refused_in_maintenance(route: Route) -> bool:
    """What a skin in maintenance refuses: its money calls (nothing is to move while the platform
    is worked on) and what starts a session (a change in the window may move the skin's platform:
    a session started on the old one would not be known to the new)."""
    return route in MONEY_CALLS or route.session == "starts"


class Maintenance:
    """Every skin's window (at most one each), as every instance sees it."""

    def __init__(self, shelf: Shelf[Window]) -> None:
        self.shelf = shelf

    def window(self, skin: str) -> Window | None:
        return self.shelf.records.get(skin)

    def on(self, skin: str, now: float | None = None) -> Window | None:
        """The skin's window if it is on now."""
        window = self.shelf.records.get(skin)
        return window if window is not None and window.on(time.time() if now is None else now) else None

    def for_players(self, skin: str) -> dict[str, Any] | None:
        window = self.on(skin)
        return window.for_players() if window is not None else None

    async def set(self, window: Window) -> None:
        await self.shelf.put(window.skin, window)

    async def end(self, skin: str) -> Window | None:
        """The window taken off (None: there was none)."""
        window = self.shelf.records.get(skin)
        if window is not None:
            await self.shelf.drop(skin)
        return window

    def boundaries(self, now: float) -> list[float]:
        """The coming moments a window starts or ends (the runner writes them to the timeline)."""
        return sorted(t for w in self.shelf.records.values() for t in (w.start, w.until) if t > now)

    def listed(self, now: float) -> dict[str, WindowView]:
        """Every window not over yet, for the console, with whether it is on."""
        return {skin: w.view(now) for skin, w in sorted(self.shelf.records.items()) if w.until > now}
