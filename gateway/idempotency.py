"""`Idempotency-Key` on exclusive routes (IETF draft "The Idempotency-Key HTTP Header Field").

The first answer for a key is kept 24 h and replayed to any repeat with
`Idempotent-Replayed: true`. A repeat with a different request (method, path, query, body)
is 422. Where we differ from the draft:
- a repeat while the first is still in flight is joined to it (the draft answers 409):
  a player's retry after a lost answer should get that answer, not an error;
- a key is bound to the session that first used it: another session presenting it gets 409
  (never another player's answer);
- the key is optional: exclusive calls without one are still joined while in flight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import msgspec

from gateway.shared import Shared

KEY = re.compile(r'^"?[A-Za-z0-9_.:+/=-]{8,128}"?$')
KEEP_MS = 24 * 3600 * 1000


class Record(msgspec.Struct, array_like=True):
    session: str
    fingerprint: str
    done: bool
    outcome: bytes = b""


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Record)


@dataclass(frozen=True)
class Verdict:
    kind: str  # "new", "replay", "join", "mismatch", "foreign"
    outcome: bytes = b""


class IdempotencyRecords:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    @staticmethod
    def valid(key: str) -> bool:
        return KEY.match(key) is not None

    @staticmethod
    def name(skin: str, key: str) -> str:
        return f"bff:{skin}:idem:{key.strip(chr(34))}"

    async def begin(self, name: str, session: str, fingerprint: str) -> Verdict:
        record = Record(session, fingerprint, done=False)
        if await self.shared.set_nx(name, _encoder.encode(record), KEEP_MS):
            return Verdict("new")
        raw = await self.shared.get(name)
        if raw is None:
            return await self.begin(name, session, fingerprint)
        existing = _decoder.decode(raw)
        if existing.session != session:
            return Verdict("foreign")
        if existing.fingerprint != fingerprint:
            return Verdict("mismatch")
        if existing.done:
            return Verdict("replay", existing.outcome)
        return Verdict("join")

    async def finish(self, name: str, session: str, fingerprint: str, outcome: bytes) -> None:
        await self.shared.set(name, _encoder.encode(Record(session, fingerprint, True, outcome)), KEEP_MS)

    async def abandon(self, name: str) -> None:
        """The call failed before the platform answered: the key may be used again."""
        await self.shared.delete(name)
