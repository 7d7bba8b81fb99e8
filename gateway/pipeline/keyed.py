"""Under policy: a money or account call carrying an `Idempotency-Key` (`gateway.idempotency`).
A new key's call goes out (joined as usual) and its outcome is recorded for replays; a repeat
replays it, or waits for it while it is in flight, or is told the outcome is unknown when the
instance that made it died; a key of another session or another request is refused."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from contracts.catalogue import Policy as RouteClass
from gateway.asgi import Outgoing
from gateway.dedup import body_digest
from gateway.errors import error, outcome_unknown, store_unavailable
from gateway.idempotency import IdempotencyRecords
from gateway.outcome import Outcome, decode, encode
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.joining import Flights
from gateway.pipeline.observe import answer
from gateway.resilience import CallPolicy
from gateway.store import StoreUnavailable

Call = Callable[[], Awaitable[Outcome]]


@dataclass
class KeyedCalls:
    records: IdempotencyRecords
    flights: Flights
    policies: dict[RouteClass, CallPolicy]

    async def run(self, x: Exchange, key: str, call: Call) -> Outgoing | Outcome:
        skin, route = x.site()
        records, ctx = self.records, x.ctx
        if not records.valid(key):
            return error(400, "BAD_IDEMPOTENCY_KEY", "Idempotency-Key must be 8-128 characters", ctx)
        name = records.name(skin.id, key)
        request = f"{route.method} {x.incoming.path}?{x.incoming.query}".encode() + (x.body or b"")
        fingerprint, session = body_digest(request), x.session.id
        try:
            verdict = await records.begin(name, session, fingerprint, self.policies[route.policy].deadline_s)
        except StoreUnavailable:
            return store_unavailable(ctx)
        if verdict.kind == "foreign":
            return error(409, "IDEMPOTENCY_KEY_IN_USE", "This Idempotency-Key belongs to another session", ctx)
        if verdict.kind == "mismatch":
            return error(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request", ctx)
        if verdict.kind == "unknown":
            ctx.dedup = "unknown"
            return outcome_unknown(ctx)
        if verdict.kind == "replay":
            ctx.dedup = "replayed"
            replayed = decode(verdict.outcome)
            replayed.session = None  # the answer as it was; the session as it is now
            again = answer(x, replayed)
            again.headers.append((b"idempotent-replayed", b"true"))
            return again
        outcome = await self.flights.join(x, call)
        with contextlib.suppress(StoreUnavailable):  # the answer still goes back; a replay finds it unknown
            if isinstance(outcome, Outgoing) or outcome.unsent:
                await records.abandon(name, verdict.token)  # refused before it left: the key may be used again
            else:
                await records.finish(name, session, fingerprint, encode(outcome), verdict.token)
        return outcome
