"""Under plan: identical requests in flight share one call. In this process first (`Dedup`);
content and exclusive (money and account) calls then across instances through the store
(`SharedFlights`, with Redis), except a call with an `Idempotency-Key`: its record and exclusive
slot keep it single across instances. Reads join in this process only: across instances a flight
costs two Redis round trips (its lease, its landing) on every read, to save at most one platform
call per instance for a burst of one player's identical reads. A request is identical
when its skin, session (content: none, or a canary's side), method, path, query, body and, for money and account
calls, its `Idempotency-Key` are: two player actions are never one call. A different request on
an exclusive route while one of the session's is in flight is refused (409)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping
from urllib.parse import parse_qsl, urlencode

import structlog

from contracts.catalogue import RouteClass
from gateway.config.timings import CallTiming
from gateway.http.asgi import Outgoing
from gateway.http.errors import in_progress, store_unavailable
from gateway.pipeline.exchange import Exchange
from gateway.state.cache import shareable
from gateway.state.dedup import Dedup, ExclusiveConflict, LeaderLost, SharedFlights, body_digest
from gateway.state.outcome import Outcome
from gateway.store import StoreUnavailable

Flight = Callable[[], Awaitable[Outcome]]
"""One flight's call to the platform, with what it does to the session (`plan.Plan.flight`)."""
log = structlog.get_logger("gateway.flights")


def shared_outcome(outcome: Outcome) -> bool:
    """Whether an outcome may serve the other requests joined to its flight: always within one
    session; for anonymous content only as the platform's Cache-Control and Vary allow."""
    return outcome.session is not None or shareable(outcome.headers)


def sorted_query(query: str) -> str:
    return urlencode(sorted(parse_qsl(query, keep_blank_values=True))) if query else ""


class Flights:
    def __init__(self, shared: SharedFlights[Outcome] | None, timings: Mapping[RouteClass, CallTiming]) -> None:
        self.local: Dedup[tuple[Outcome, str]] = Dedup()
        self.shared = shared
        """Across instances; None with one instance (the memory store)."""
        self.timings = timings

    async def join(self, x: Exchange, call: Flight) -> Outcome | Outgoing:
        """The flight's outcome; 409 for a conflicting exclusive call; 503 without the store."""
        skin, route = x.site()
        content = route.policy == "content"
        action = x.incoming.headers.get("idempotency-key", "") if route.exclusive else ""
        key = (
            skin.id,
            x.variant if content else x.session.id,
            route.method,
            x.incoming.path,
            sorted_query(x.incoming.query),
            body_digest(x.body) if x.body else "",
            action,
        )
        slot = (skin.id, x.session.id, route.name) if route.exclusive else None
        try:
            (outcome, role), joined = await self.local.join(key, lambda: self._lead(x, key, slot, call), slot)
        except ExclusiveConflict:
            return in_progress(x.ctx)
        except LeaderLost:
            return Outcome.failed("lost")
        except StoreUnavailable:
            return store_unavailable(x.ctx)
        except TimeoutError:
            log.warning("flight.wait_timed_out", skin=skin.id, route=route.name)
            return Outcome.failed("timeout")
        x.ctx.dedup = "follower" if joined == "follower" else role
        if joined == "follower" and not shared_outcome(outcome):
            return await call()  # one visitor's private answer is not another's
        return outcome

    async def _lead(
        self, x: Exchange, key: Hashable, slot: tuple[str, ...] | None, call: Flight
    ) -> tuple[Outcome, str]:
        """This process's call for the key: made here, or joined to another instance's."""
        _, route = x.site()
        # A keyed money call is single across instances by its idempotency record and slot already.
        keyed = route.exclusive and "idempotency-key" in x.incoming.headers
        if self.shared is None or route.joins == "process" or keyed:
            return await call(), "leader"
        try:
            return await self.shared.join(
                body_digest(repr(key).encode()),
                call,
                ":".join(slot) if slot is not None else None,
                takeover=not route.exclusive,
                within_s=self.timings[route.deadline].deadline_s,
            )
        except StoreUnavailable:
            if route.policy != "content":
                raise
            return await call(), "leader"  # anonymous content goes on without Redis
