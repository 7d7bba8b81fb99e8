"""`Idempotency-Key` on exclusive routes (IETF draft "The Idempotency-Key HTTP Header Field").

The first answer for a key is kept 24 h and replayed to any repeat with
`Idempotent-Replayed: true`. A repeat with a different request (method, path, query, body)
is 422. Where we differ from the draft:
- a repeat while the first is still in flight waits for it (the draft answers 409): a player's
  retry after a lost answer should get that answer, not an error. The wait is bounded by the
  route's deadline, and it ends as soon as the first call's instance is found dead (its holder
  lease names the instance, `gateway.state.presence`): then nobody can know whether the platform
  acted, the record says so for good (`unknown`), and every repeat is told to check the history
  instead of being sent a second time;
- a key is bound to the session that first used it: another session presenting it gets 409
  (never another player's answer);
- the key is optional: exclusive calls without one are still joined while in flight;
- a new key of a session whose other call on the same route is still in flight gets 409 (the
  draft's answer for a repeat): the claim takes the route's exclusive slot with the record.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass
from typing import Literal

import msgspec

from gateway.store import MAX_VALUE_BYTES, Shared, keys

KEY = re.compile(r'^"?[A-Za-z0-9_.:+/=-]{8,128}"?$')
KEEP_MS = 24 * 3600 * 1000
LEASE_MARGIN_MS = 2000
PRESENCE_GRACE_S = 1.0
"""A holder seen dead is looked at once more after this (twice `gateway.store.sentinel.follow`'s period)."""


class IdempotencyRecord(msgspec.Struct, array_like=True):
    session: str
    fingerprint: str
    done: bool
    outcome: bytes = b""
    unknown: bool = False
    """The call's instance died before it recorded an outcome: nobody knows what the platform did."""


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(IdempotencyRecord)

Kind = Literal["new", "replay", "unknown", "mismatch", "foreign", "conflict"]


@dataclass(frozen=True)
class IdempotencyVerdict:
    kind: Kind
    outcome: bytes = b""
    """The recorded outcome (`replay`)."""
    token: bytes = b""
    """The holder token of a `new` call, to finish or abandon it with."""
    until: float = 0.0
    """When the holder's lease and slot of a `new` call end by themselves (the loop's clock)."""


class IdempotencyRecords:
    def __init__(self, shared: Shared, instance: str = "local", poll_s: float = 0.02) -> None:
        self.shared = shared
        self.instance = instance
        self.poll_s = poll_s

    @staticmethod
    def valid(key: str) -> bool:
        return KEY.match(key) is not None

    @staticmethod
    def name(skin: str, key: str) -> str:
        return keys.of_skin(skin, keys.IDEMPOTENCY, key.strip(chr(34)))

    async def begin(self, name: str, slot: str, session: str, fingerprint: str, within_s: float) -> IdempotencyVerdict:
        """Claims the key (and the session and route's exclusive `slot`) for a new call, or tells
        what became of the first call with it, waiting up to `within_s` while that call is still
        in flight on a live instance, or finds another call of the session and route in flight."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        token = f"{self.instance}:{secrets.token_hex(8)}".encode()
        fresh = _encoder.encode(IdempotencyRecord(session, fingerprint, done=False))
        lease_ms = int(within_s * 1000) + LEASE_MARGIN_MS
        delay, doubted = self.poll_s, False
        while True:
            until = loop.time() + lease_ms / 1000
            claim, raw, alive = await self.shared.claim(name, fresh, KEEP_MS, _lease(name), token, lease_ms, slot)
            if claim == "claimed":
                return IdempotencyVerdict("new", token=token, until=until)
            if claim == "conflict":
                return IdempotencyVerdict("conflict")
            if raw is None:
                continue  # the record ended between the two looks: claim it again
            existing = _decoder.decode(raw)
            if existing.session != session:
                return IdempotencyVerdict("foreign")
            if existing.fingerprint != fingerprint:
                return IdempotencyVerdict("mismatch")
            if existing.done:
                return IdempotencyVerdict("replay", existing.outcome)
            if existing.unknown:
                return IdempotencyVerdict("unknown")
            if not alive and not doubted:  # in a Redis failover instances reach the new primary a moment apart
                doubted = True
                await asyncio.sleep(PRESENCE_GRACE_S)
                continue
            if not alive:
                lost = _encoder.encode(IdempotencyRecord(session, fingerprint, done=False, unknown=True))
                await self.shared.swap(name, raw, lost, KEEP_MS)
                return IdempotencyVerdict("unknown")
            if loop.time() >= deadline:
                return IdempotencyVerdict("unknown")  # still in flight past the deadline of its own route
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.2)

    async def finish(self, name: str, slot: str, token: bytes, outcome: bytes, session: str, fingerprint: str) -> None:
        """Records the outcome for replays (one too large to keep is recorded as unknown) and
        frees the slot for the session's next call, in one round trip."""
        record = IdempotencyRecord(session, fingerprint, True, outcome)
        if len(outcome) > MAX_VALUE_BYTES - 1024:
            record = IdempotencyRecord(session, fingerprint, False, unknown=True)
        await self.shared.set_and_release(name, _encoder.encode(record), KEEP_MS, _lease(name), token, slot)

    async def abandon(self, name: str, slot: str, token: bytes) -> None:
        """The call never reached the platform: the key may be used again and the slot is free
        (once the store can take that, if it cannot now)."""
        await self.shared.release(name, _lease(name), token, slot)


def _lease(name: str) -> str:
    return keys.beside(name, "holder")
