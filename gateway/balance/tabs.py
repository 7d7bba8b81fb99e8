"""The open `/bff/events` streams of this instance, as the feed holds them: each `Tab` queues its
events for its writer, at most `limit` of them (a reader that falls behind is dropped); a
player's tabs, sessions and poller state are its `PlayerFeed`; and the words a stream ends with."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections import Counter, deque
from typing import Literal, NamedTuple, get_args

import msgspec

from gateway.http.asgi import Incoming

SessionEnd = Literal["logout", "expired", "revoked"]
LOGGED_OUT, EXPIRED, REVOKED = get_args(SessionEnd)
Closing = Literal["draining", "unavailable", "slow", "gone"]
"""Why a stream closes without a session end: the instance drains, Redis went away, the client
does not read, the client left."""


class StreamEvent(NamedTuple):
    """One server-sent event: a balance (with its id), a reality check answered, or the session's end."""

    kind: Literal["balance", "reality", "end"]
    id: str
    data: str


def tag_of(session_id: str) -> str:
    """A session as notes name it: never the id itself, which opens the session."""
    return hashlib.sha256(session_id.encode()).hexdigest()[:24]


class Tab:
    """One open stream: its events waiting to be written, at most `limit` of them."""

    __slots__ = ("ended", "events", "incoming", "limit", "player", "session_id", "tag", "wake")

    def __init__(self, player: PlayerFeed, session_id: str, incoming: Incoming, limit: int) -> None:
        self.player = player
        self.session_id = session_id
        self.tag = tag_of(session_id)
        self.incoming = incoming
        self.limit = limit
        self.events: deque[StreamEvent] = deque()
        self.wake = asyncio.Event()
        self.ended: str | None = None

    def offer(self, event: StreamEvent) -> None:
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
            self.events.append(StreamEvent("end", "", msgspec.json.encode({"reason": reason}).decode()))
            self.ended = reason
            self.wake.set()

    def close(self, reason: Closing) -> None:
        if self.ended is None:
            self.ended = reason
            self.wake.set()

    async def next(self, within_s: float) -> StreamEvent | None:
        """The next event; None when nothing came within `within_s` or the stream ended."""
        if not self.events and self.ended is None:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(within_s):  # wait_for's task per wait cost 2-3x more per heartbeat
                    await self.wake.wait()
        return self.events.popleft() if self.events else None


class PlayerFeed:
    """One player's feed in this process: its tabs, the sessions they came with, its poller."""

    def __init__(self, skin_id: str, login: str) -> None:
        self.skin_id = skin_id
        self.login = login
        self.tabs: set[Tab] = set()
        self.sessions: Counter[str] = Counter()
        self.last: tuple[str, str] | None = None
        """The newest balance heard: (event id, the platform's answer as JSON)."""
        self.poller: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.urgent = False
        self.leading = False
        self.next_poll = 0.0
        self.follow_ups: list[float] = []

    def poll_soon(self, follow_ups: tuple[float, ...] = ()) -> None:
        """Wakes the poller to ask at once (if this process leads the player), and again `follow_ups`
        seconds from now."""
        now = time.monotonic()
        self.urgent = True
        self.follow_ups = sorted([*self.follow_ups, *(now + s for s in follow_ups)])
        self.wake.set()
