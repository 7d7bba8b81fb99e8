"""Under plan: content (`/capi` GETs, the sports feed) answers from the cache first, as the
platform's `Cache-Control` allows (`gateway.shared.cache`). A fresh copy is a HIT; a copy past its
freshness but within stale-while-revalidate is served STALE while one refresh runs (on any
instance); an expired copy is asked again, conditionally where it has validators (a 304 makes it
REVALIDATED); when the platform fails, a copy within stale-if-error is served STALE instead.
The browser's own conditionals are answered from the copy served (304)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from contracts.catalogue import Caching
from gateway.http.asgi import Outgoing
from gateway.operations.lifecycle import Lifecycle
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.joining import Flight, Flights, sorted_query
from gateway.pipeline.observe import reply
from gateway.shared import keys
from gateway.shared.cache import ContentCache, Entry, not_modified, validators
from gateway.upstream.outcome import Outcome

Flying = Callable[[Mapping[str, str]], Flight]
"""A flight for the route, asking with these validators (none: the whole answer)."""


@dataclass
class ContentPlan:
    cache: ContentCache
    flights: Flights
    lifecycle: Lifecycle

    async def serve(self, x: Exchange, flying: Flying) -> Outgoing:
        skin, route = x.site()
        cache, caching, whole = self.cache, route.cache, flying({})
        if caching is None:  # content the gateway never keeps (`Route.cache`): joined, then passed on
            joined = await self.flights.join(x, whole)
            return joined if isinstance(joined, Outgoing) else reply(x, joined)
        key = keys.content(skin.id, x.incoming.path, sorted_query(x.incoming.query))
        entry = await cache.get(key)
        state = cache.state(entry) if entry is not None else None
        if entry is not None and state is not None:
            if state == "STALE":
                self.lifecycle.spawn(cache.refresh_once(key, lambda: self._refresh(caching, key, whole)))
            return cached_copy(cache, x, entry, state)
        # Past its freshness: asked again, conditionally where the copy has validators.
        outcome = await self.flights.join(x, flying(validators(entry)) if entry is not None else whole)
        if isinstance(outcome, Outgoing):
            return outcome
        failed = outcome.failure is not None or outcome.status >= 500
        if failed and entry is not None and cache.usable_on_error(entry):
            return cached_copy(cache, x, entry, "STALE")
        if outcome.status == 304 and outcome.failure is None:
            if entry is not None:
                entry = cache.revalidated(entry, caching, outcome.headers)
                await cache.put(key, entry)
                return cached_copy(cache, x, entry, "REVALIDATED")
            outcome = await whole()  # a joined revalidation this instance holds no copy for
        if outcome.status == 200 and outcome.failure is None:
            await self._keep(caching, key, outcome, had_copy=entry is not None)
            if not_modified(x.incoming.headers, outcome.headers):
                return not_modified_answer(x, outcome.headers, "MISS")
        fresh = reply(x, outcome)
        fresh.headers.append((b"x-cache", b"MISS"))
        x.ctx.cache = "MISS"
        return fresh

    async def _keep(self, caching: Caching, key: str, outcome: Outcome, had_copy: bool) -> None:
        """Keeps a copy when the platform allows it; otherwise an old copy goes too."""
        entry = self.cache.entry(caching, outcome)
        if entry is not None:
            await self.cache.put(key, entry)
        elif had_copy:
            await self.cache.forget(key)

    async def _refresh(self, caching: Caching, key: str, call: Flight) -> Entry | None:
        """The copy a background refresh brings (`ContentCache.refresh_once` keeps it)."""
        outcome = await call()
        if outcome.failure is not None or outcome.status != 200:
            return None
        entry = self.cache.entry(caching, outcome)
        if entry is None:  # the platform no longer lets it be kept: the old copy goes too
            await self.cache.forget(key)
        return entry


def cached_copy(cache: ContentCache, x: Exchange, entry: Entry, state: str) -> Outgoing:
    """A cached copy with its age; it carries no session, so it sets no cookie."""
    x.ctx.dedup, x.ctx.cache = f"cache-{state.lower()}", state
    headers = {**entry.answer.headers, "age": str(cache.age(entry))}
    if not_modified(x.incoming.headers, headers):
        return not_modified_answer(x, headers, state)
    listed = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
    listed.append((b"x-cache", state.encode()))
    return Outgoing(entry.answer.status, listed, entry.answer.body)


def not_modified_answer(x: Exchange, headers: dict[str, str], state: str) -> Outgoing:
    """The browser's own copy is current: 304 with the headers that describe it, no body."""
    listed = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in headers.items() if n != "content-type"]
    listed.append((b"x-cache", state.encode()))
    return Outgoing(304, listed)
