"""A player's open streams as the balance feed holds them: each `Tab` queues its events for its
writer, at most `limit` of them (a reader that falls behind is dropped), and the words a stream
ends with. Split from `balance_feed`."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import deque
from typing import Any, Literal, NamedTuple, get_args

import msgspec

from gateway.http.asgi import Incoming

SessionEnd = Literal["logout", "expired", "revoked"]
LOGGED_OUT, EXPIRED, REVOKED = get_args(SessionEnd)
Closing = Literal["draining", "unavailable", "slow", "gone"]
"""Why a stream closes without a session end: the instance drains, Redis went away, the client
does not read, the client left."""


class Event(NamedTuple):
    kind: Literal["balance", "end"]
    id: str
    data: str


def tag_of(session_id: str) -> str:
    """A session as notes name it: never the id itself, which opens the session."""
    return hashlib.sha256(session_id.encode()).hexdigest()[:24]


class Tab:
    """One open stream: its events waiting to be written, at most `limit` of them."""

    __slots__ = ("ended", "events", "incoming", "limit", "player", "session_id", "tag", "wake")

    def __init__(self, player: Any, session_id: str, incoming: Incoming, limit: int) -> None:
        self.player = player
        self.session_id = session_id
        self.tag = tag_of(session_id)
        self.incoming = incoming
        self.limit = limit
        self.events: deque[Event] = deque()
        self.wake = asyncio.Event()
        self.ended: str | None = None

    def offer(self, event: Event) -> None:
        """Queued for the writer; a reader that fell `limit` events behind is dropped."""
        if self.ended is not None:
            return
        if len(self.events) >= self.limit:
            self.close("slow")
            return
        self.events.append(event)
        self.wake.set()

    def finish(self, reason: SessionEnd) -> None:
        """The session ended: an `end` event, the last one."""
        if self.ended is None:
            self.events.append(Event("end", "", msgspec.json.encode({"reason": reason}).decode()))
            self.ended = reason
            self.wake.set()

    def close(self, reason: Closing) -> None:
        if self.ended is None:
            self.ended = reason
            self.wake.set()

    async def next(self, within_s: float) -> Event | None:
        """The next event; None when nothing came within `within_s` or the stream ended."""
        if not self.events and self.ended is None:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(within_s):  # wait_for's task per wait cost 2-3x more per heartbeat
                    await self.wake.wait()
        return self.events.popleft() if self.events else None
