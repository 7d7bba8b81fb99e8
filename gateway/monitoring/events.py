"""The event timeline: what happened to the cluster, one entry per event however many instances
saw it (an upstream down and back, a breaker opened and closed, a platform error storm, the
configuration changed or rejected, an instance joined, went stale or left, the store unavailable
and back).

With Redis the timeline is a capped stream (`bff:timeline`, `XADD MAXLEN ~ MAX_ENTRIES`) that
outlives restarts and that every instance reads; without Redis it is this process's memory (the
last `MAX_ENTRIES`, gone with the process). Only the gateway writes it (`gateway.monitoring.watch`):
there is no API to post an entry.

One writer per event: every instance watches for itself and, when what it sees changes, moves the
cluster's state of that subject (`bff:timeline:state:<subject>`, `<state>|<since>`) in one script
that compares and sets; the instance that moved it writes the entry, the others find it moved
already. A state that changes back ("up" after "down") carries when the first began, so an entry
says "down at, back at". An event that has no state to compare (the store back after an outage
none could record) is claimed instead: `SET bff:timeline:claim:<key> NX EX CLAIM_S`.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import msgspec
from redis.asyncio import Redis

from gateway.config.history import iso
from gateway.store import keys, or_unavailable

MAX_ENTRIES = 10_000
STATE_TTL_S = 7 * 86400
"""A subject's state is forgotten a week after it last changed (an instance id long gone)."""
CLAIM_S = 30
"""Instances that see one event within this long of each other write it once."""
READ_AT_MOST = 500

# Moves a subject to a new state unless it is in it already: returns its old `<state>|<since>`
# (false: never recorded), or the current one prefixed by '=' when it was in that state already.
# KEYS: the state's key; ARGV: state, now, ttl s.
MOVE = (
    "local old = redis.call('get', KEYS[1]) "
    "if old and string.match(old, '^([^|]*)') == ARGV[1] then return '=' .. old end "
    "redis.call('set', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'EX', ARGV[3]) "
    "return old or false"
)


class TimelineEntry(msgspec.Struct, rename="camel", omit_defaults=True):
    """One entry. `since`: when what ended began (an upstream's "down at" on its "back" entry)."""

    kind: str
    """upstream.down|back, breaker.open|closed, storm.start|end, config.changed|rejected,
    instance.joined|stale|back|left, store.back (with the outage's `since`), maintenance.start|end,
    scheduled.done|failed (`gateway.console.plans.runner`)."""
    at: float
    by: str
    """The instance that wrote it."""
    skin: str | None = None
    upstream: str | None = None
    instance: str | None = None
    since: float | None = None
    detail: str | None = None

    def public(self, entry_id: str) -> dict[str, Any]:
        answer = {f: getattr(self, f) for f in self.__struct_fields__}
        answer["at"] = iso(self.at)
        answer["since"] = iso(self.since) if self.since is not None else None
        return {"id": entry_id, **answer}


@dataclass(frozen=True)
class Moved:
    """A subject moved to a new state."""

    first: bool
    """This instance moved it (and writes the entry); False: another one had already."""
    since: float
    """Since when the subject is in its new state."""
    before: str | None = None
    """Its state before (None: never recorded)."""
    before_since: float | None = None


_event = msgspec.json.Decoder(TimelineEntry)


def _parse(answer: bytes | None, now: float) -> Moved:
    if answer is None:
        return Moved(True, now)
    text = answer.decode()
    state, _, since = text.removeprefix("=").partition("|")
    if text.startswith("="):
        return Moved(False, float(since))
    return Moved(True, now, state, float(since))


class Timeline:
    """The cluster's events: in Redis when there is one, else in this process."""

    def __init__(self, instance: str, redis: Redis | None) -> None:
        self.instance = instance
        self.redis = redis
        self._states: dict[str, tuple[str, float]] = {}
        self._claims: dict[str, float] = {}
        self._entries: deque[tuple[str, TimelineEntry]] = deque(maxlen=MAX_ENTRIES)
        self._move = redis.register_script(MOVE) if redis is not None else None
        self._sequence = 0

    async def move(self, subject: str, state: str) -> Moved:
        """The cluster's state of `subject` moved to `state`, unless another instance moved it first."""
        now = time.time()
        if self._move is None:
            old = self._states.get(subject)
            if old is not None and old[0] == state:
                return Moved(False, old[1])
            self._states[subject] = (state, now)
            return Moved(True, now, *old) if old is not None else Moved(True, now)
        answer = await or_unavailable(
            self._move(keys=[keys.TIMELINE_STATE + subject], args=[state, repr(now), STATE_TTL_S])
        )
        return _parse(answer or None, now)

    async def claim(self, key: str) -> bool:
        """Whether this instance is the one to write the event `key` (first within `CLAIM_S`)."""
        if self.redis is None:
            now = time.time()
            if now - self._claims.get(key, -CLAIM_S) < CLAIM_S:
                return False
            self._claims[key] = now
            return True
        return bool(await or_unavailable(self.redis.set(keys.TIMELINE_CLAIM + key, self.instance, nx=True, ex=CLAIM_S)))

    async def write(self, event: TimelineEntry) -> None:
        data = msgspec.json.encode(event)
        if self.redis is None:
            self._sequence += 1
            self._entries.append((f"{int(event.at * 1000)}-{self._sequence}", event))
            return
        await or_unavailable(self.redis.xadd(keys.TIMELINE, {"e": data}, maxlen=MAX_ENTRIES, approximate=True))

    async def read(self, since: float | None, until: float | None, skin: str | None) -> list[dict[str, Any]]:
        """The entries from `since` to `until` (epoch s), newest first, at most `READ_AT_MOST`;
        with `skin`, only that skin's."""
        low = f"{int(since * 1000)}-0" if since is not None else "-"
        high = f"{int(until * 1000)}-99999999" if until is not None else "+"
        if self.redis is None:
            found = [(i, e) for i, e in reversed(self._entries) if _within(i, since, until)]
        else:
            stream: Any = await or_unavailable(self.redis.xrevrange(keys.TIMELINE, high, low, count=READ_AT_MOST))
            found = [(i.decode(), _event.decode(fields[b"e"])) for i, fields in stream]
        return [e.public(i) for i, e in found if skin is None or e.skin == skin][:READ_AT_MOST]


def _within(entry_id: str, since: float | None, until: float | None) -> bool:
    at = int(entry_id.partition("-")[0]) / 1000
    return (since is None or at >= since) and (until is None or at <= until + 0.001)
