"""Under plan: content (`/capi` GETs, the sports feed) answers from the cache first, as the
platform's `Cache-Control` allows (`gateway.state.cache`). A fresh copy is a HIT; a copy past its
freshness but within stale-while-revalidate is served STALE while one refresh runs (on any
instance); an expired copy is asked again, conditionally where it has validators (a 304 makes it
REVALIDATED); when the platform fails, a copy within stale-if-error is served STALE instead.

Toward the browser a copy is its stored bytes (`gateway.http.stored`: brotli and gzip made once
when the copy was made), the variant the request accepts, with the gateway's strong ETag for that
variant and `Vary: Accept-Encoding`; the browser's `If-None-Match` naming it is answered 304 with
no body. The platform's own `ETag` and `Last-Modified` stay the copy's, to revalidate it upstream.
`Cache-Control`: the platform's when it gives the browser a lifetime (`max-age`, less `Age`) or
forbids keeping, else `no-cache`: the browser keeps the copy and asks each time, a 304 of a few
hundred bytes while it is unchanged."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from contracts.catalogue import Caching
from gateway.http.asgi import Outgoing
from gateway.http.compression import varies_on_encoding
from gateway.http.stored import StoredBody, serve
from gateway.pipeline.encoding import on_the_fly
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.joining import Flight, Flights, sorted_query
from gateway.pipeline.observe import respond
from gateway.runtime.lifecycle import Lifecycle
from gateway.state.cache import CacheEntry, ContentCache, directives, validators
from gateway.state.outcome import Outcome
from gateway.store import keys

Flying = Callable[[Mapping[str, str]], Flight]
"""A flight for the route, asking with these validators (none: the whole answer)."""
_REMEMBERED_BYTES = 1024 * 1024


@dataclass
class ContentPlan:
    cache: ContentCache
    flights: Flights
    lifecycle: Lifecycle
    _made: dict[str, tuple[Outcome, CacheEntry | None]] = field(default_factory=dict)
    """By key, the copy last made and the outcome it was made of: requests joined to one flight in
    this process share its outcome, so it is compressed once, for the first, and the others'
    `_keep` finds it here."""

    async def serve(self, x: Exchange, flying: Flying) -> Outgoing:
        skin, route = x.site()
        cache, caching, whole = self.cache, route.cache, flying({})
        if caching is None:  # content the gateway never keeps (`Route.cache`): joined, then passed on
            joined = await self.flights.join(x, whole)
            return joined if isinstance(joined, Outgoing) else on_the_fly(x, respond(x, joined))
        key = keys.content(skin.id, x.incoming.path, sorted_query(x.incoming.query)) + _side(x)
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
            kept = await self._keep(caching, key, outcome, had_copy=entry is not None)
            if kept is not None:
                return cached_copy(cache, x, kept, "MISS")
        x.ctx.cache = "MISS"
        fresh = on_the_fly(x, respond(x, outcome))  # not kept (private, too large, an error): as sent
        fresh.headers.append((b"x-cache", b"MISS"))
        return fresh

    async def _keep(self, caching: Caching, key: str, outcome: Outcome, had_copy: bool) -> CacheEntry | None:
        """Keeps a copy when the platform allows it; otherwise an old copy goes too. Requests
        joined to one flight in this process share the copy its first made (and stored)."""
        made = self._made.get(key)
        if made is not None and made[0] is outcome:
            return made[1]
        entry = self.cache.entry(caching, outcome)
        if len(outcome.body) <= _REMEMBERED_BYTES:  # held a little while: bounded in number and size
            if len(self._made) >= 64:
                self._made.clear()
            self._made[key] = (outcome, entry)
        if entry is not None:
            await self.cache.put(key, entry)
        elif had_copy:
            await self.cache.forget(key)
        return entry

    async def _refresh(self, caching: Caching, key: str, call: Flight) -> CacheEntry | None:
        """The copy a background refresh brings (`ContentCache.refresh_once` keeps it)."""
        outcome = await call()
        if outcome.failure is not None or outcome.status != 200:
            return None
        entry = self.cache.entry(caching, outcome)
        if entry is None:  # the platform no longer lets it be kept: the old copy goes too
            await self.cache.forget(key)
        return entry


def _side(x: Exchange) -> str:
    """A canary's new side keeps its copies apart (its platform's content may differ): they go
    with the canary, the old side's stay as they were (`gateway.canary.routing`)."""
    variant = x.variant
    return f"#canary:{variant}" if variant else ""


_UPSTREAM_VALIDATORS = frozenset({"etag", "last-modified"})


def cached_copy(cache: ContentCache, x: Exchange, entry: CacheEntry, state: str) -> Outgoing:
    """A cached copy with its age, in the encoding the request accepts; it carries no session, so
    it sets no cookie."""
    if state != "MISS":
        x.ctx.dedup = f"cache-{state.lower()}"
    x.ctx.cache = state
    kept, heads = _shown(entry)
    extra = [(b"age", str(cache.age(entry)).encode()), (b"x-cache", state.encode())]
    return serve(kept, entry.answer.status, heads, x.incoming.headers, extra)


_heads: dict[int, tuple[CacheEntry, StoredBody, list[tuple[bytes, bytes]]]] = {}


def _shown(entry: CacheEntry) -> tuple[StoredBody, list[tuple[bytes, bytes]]]:
    """A copy's body and its headers as the browser gets them, made once per copy (a hit pays
    for neither; copies live in the cache's LRU, so they are known by identity, a few thousand)."""
    found = _heads.get(id(entry))
    if found is not None and found[0] is entry:
        return found[1], found[2]
    kept = entry.stored_body()
    shown = browser_headers(entry.answer.headers, kept)
    heads = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in shown.items()]
    if len(_heads) >= 4096:
        _heads.clear()
    _heads[id(entry)] = (entry, kept, heads)
    return kept, heads


def browser_headers(platform: dict[str, str], kept: StoredBody) -> dict[str, str]:
    """What the browser is told of a copy besides its ETag: the platform's headers without its
    validators (the copy's own, to ask the platform), `Cache-Control` as the module says, `Vary`
    with `Accept-Encoding` where the copy exists in more than one encoding."""
    headers = {name: value for name, value in platform.items() if name not in _UPSTREAM_VALIDATORS}
    control = directives(platform.get("cache-control"))
    if not control.keys() & {"max-age", "no-cache", "no-store"}:
        headers["cache-control"] = "no-cache"
    if kept.is_compressed:
        varies = platform.get("vary")
        if not varies:
            headers["vary"] = "accept-encoding"
        elif not varies_on_encoding(varies):
            headers["vary"] = f"{varies}, accept-encoding"
    return headers
