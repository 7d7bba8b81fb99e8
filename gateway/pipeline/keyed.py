"""Under plan: a money or account call carrying an `Idempotency-Key` (`gateway.state.idempotency`).
A new key's call goes out (joined in this process only: its record and the session and route's
exclusive slot, taken in one claim, keep it single across instances) and its outcome is recorded
for replays; a repeat replays it, or waits for it while it is in flight, or is told the outcome is
unknown when the instance that made it died; a key of another session or another request is
refused, and so is a new key while the session's other call on the route is in flight (409)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import partial

from contracts.catalogue import RouteClass
from gateway.config.timings import CallTiming
from gateway.http.asgi import Outgoing
from gateway.http.errors import error, in_progress, outcome_unknown, store_unavailable
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.joining import Flight, Flights
from gateway.pipeline.observe import respond
from gateway.runtime.lifecycle import Lifecycle
from gateway.state.dedup import body_digest
from gateway.state.idempotency import IdempotencyRecords
from gateway.state.outcome import Outcome, decode, encode
from gateway.store import StoreUnavailable, hand_back, keys


@dataclass
class KeyedCalls:
    records: IdempotencyRecords
    flights: Flights
    timings: Mapping[RouteClass, CallTiming]
    lifecycle: Lifecycle
    """Owns the retries of a record's release the store refused."""

    async def serve(self, x: Exchange, key: str, call: Flight) -> Outgoing | Outcome:
        skin, route = x.site()
        records, ctx = self.records, x.ctx
        if not records.valid(key):
            return error(400, "BAD_IDEMPOTENCY_KEY", "Idempotency-Key must be 8-128 characters", ctx)
        name, slot = records.name(skin.id, key), keys.exclusive_slot(skin.id, x.session.id, route.name)
        request = f"{route.method} {x.incoming.path}?{x.incoming.query}".encode() + (x.body or b"")
        fingerprint, session = body_digest(request), x.session.id
        try:
            verdict = await records.begin(name, slot, session, fingerprint, self.timings[route.deadline].deadline_s)
        except StoreUnavailable:
            return store_unavailable(ctx)
        if verdict.kind == "foreign":
            return error(409, "IDEMPOTENCY_KEY_IN_USE", "This Idempotency-Key belongs to another session", ctx)
        if verdict.kind == "mismatch":
            return error(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used for a different request", ctx)
        if verdict.kind == "conflict":
            return in_progress(ctx)
        if verdict.kind == "unknown":
            ctx.dedup = "unknown"
            return outcome_unknown(ctx)
        if verdict.kind == "replay":
            ctx.dedup = "replayed"
            replayed = decode(verdict.outcome)
            replayed.session = None  # the answer as it was; the session as it is now
            again = respond(x, replayed)
            again.headers.append((b"idempotent-replayed", b"true"))
            return again
        outcome = await self.flights.join(x, call)
        if isinstance(outcome, Outgoing) or outcome.unsent:  # refused before it left: the key may be used again
            release = partial(records.abandon, name, slot, verdict.token)
        else:
            release = partial(records.finish, name, slot, verdict.token, encode(outcome), session, fingerprint)
        await self._release(release, verdict.until)
        return outcome

    async def _release(self, give_up: Callable[[], Awaitable[None]], until: float) -> None:
        """The record finished or abandoned, its lease and slot freed; the answer goes back even
        when the store refuses that, and a chore tries again until the lease would have ended
        (else the player's next call would be 409 and a replay wait for nothing, that long)."""
        left_s = until - asyncio.get_running_loop().time()
        await hand_back(give_up, left_s, self.lifecycle.spawn, "idempotency.release", every_s=0.25)
