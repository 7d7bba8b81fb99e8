"""What one call to the platform came to: its answer (the headers a browser may see), or why
there was none, and the session as the call left it. One type, kept as it is in flights shared
between instances, idempotency records and cached copies; the upstream caller makes it
(`gateway.upstream.caller`, where the transport's exceptions become a `Failure`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gateway.state.session import Session

Failure = Literal["unreachable", "stale", "timeout", "broken", "open", "lost", "contract"]
"""Why the platform gave no answer: `unreachable` (no connection: never sent), `stale` (a kept-
alive connection it had dropped: never read), `timeout`, `broken` (sent, then the connection
failed or spoke nonsense), `open` (the breaker is open: never sent), `lost` (the instance that
made the call went away: nobody here knows what the platform did), `contract` (it answered, but
not as the route's contract says: an HTML page, a field the product reads missing or mistyped)."""
UNSENT: frozenset[str] = frozenset({"unreachable", "open"})
"""Failures that prove the platform never saw the call (an idempotency key may be used again)."""


class Outcome(msgspec.Struct, array_like=True):
    status: int
    headers: dict[str, str]
    body: bytes
    failure: Failure | None = None
    retry_after: int | None = None
    """With `open`: seconds until the breaker lets a call through."""
    session: Session | None = None
    """The session as the call left it (login and logout change it); None for content."""
    gzip: bytes | None = None
    """The platform's own gzip of `body`, for a read nothing in the gateway reads
    (`upstream.call.passes_through`): sent as it came to a browser that takes gzip. `body` is
    always the answer as the platform meant it: every reader reads that."""

    @classmethod
    def failed(cls, failure: Failure, retry_after: int | None = None) -> Outcome:
        return cls(503 if failure == "open" else 504 if failure == "timeout" else 502, {}, b"", failure, retry_after)

    @property
    def unsent(self) -> bool:
        """The platform never saw the call."""
        return self.failure in UNSENT

    @property
    def is_accepted(self) -> bool:
        """The platform answered and said yes (`success: true`)."""
        if self.failure is not None or self.status != 200 or b'"success"' not in self.body:
            return False
        try:
            data = msgspec.json.decode(self.body)
        except msgspec.DecodeError:
            return False
        return isinstance(data, dict) and data.get("success") is True


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Outcome)


def encode(outcome: Outcome) -> bytes:
    return _encoder.encode(outcome)


def decode(raw: bytes) -> Outcome:
    return _decoder.decode(raw)
