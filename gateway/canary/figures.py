"""A canary's figures, per side: what its judge (`gateway.canary.judge`) compares the new upstream by.

Counted on the front door's access path (`gateway.monitoring.observability.Access`) for every
request the canary's routing gave a side (`RequestContext.canary`) that the platform or_unavailable or
failed (a cached copy or a joined flight's follower says nothing of it): its answers, those that
were 5xx, the player's or the platform's (a stale copy served over a platform's 5xx is one; an
answer that broke its contract is a 502 of the gateway's, `Caller.broke`, so it is among them),
the platform's refusals (`success: false`), a latency histogram in the charts' buckets
(`gateway.monitoring.figures.BOUNDS_S`: counts from several instances add up, and a p99 read from
their sum is within a bucket's width), sign-ins and the accepted ones, money calls
(`contracts.catalogue.MONEY_CALLS`) and the or_unavailable ones (under 500: a no-answer is always 5xx).

Counts go into 5-second slots. With Redis each instance adds its counts to the canary's hash
(`bff:canary:<id>:figures`, fields `<slot>:<side>:<figure>`, kept a day) by HINCRBY, in one pipeline, a
quarter second after the first count it has not written yet, as the charts' series are written; an
instance that routed nothing to a canary writes nothing. Without Redis the process keeps them.
`read` sums every instance's counts of the slots in a window.
"""

from __future__ import annotations

from bisect import bisect_left

from contracts.catalogue import MONEY_CALLS, ROUTES
from gateway.canary.model import Side, SideFigures
from gateway.http.asgi import RequestContext
from gateway.monitoring.figures import BOUNDS_S, quantile_s
from gateway.monitoring.series import Batched
from gateway.store import StoreUnavailable, or_unavailable

SLOT_S = 5
KEEP_S = 86400
MAX_NAMED_SLOTS = 24
"""A window of up to two minutes is read field by field (HMGET: a check's, of 10 s, asks for at
most 402 fields); a longer one reads the whole hash."""
ANSWERS, ERRORS, REFUSED, LOGINS, LOGINS_OK, MONEY, MONEY_OK, FIRST_BUCKET = range(8)
WIDTH = FIRST_BUCKET + len(BOUNDS_S) + 1
SIDES: tuple[Side, ...] = ("old", "new")
_SIGN_INS = frozenset(route.name for route in ROUTES if route.session == "starts")
_MONEY = frozenset(route.name for route in MONEY_CALLS)

Counts = dict[tuple[str, int, str], list[int]]
"""(canary id, slot, side) -> [answers, 5xx, refused, logins, accepted, money, or_unavailable, latency buckets...]."""


def figures_key(canary_id: str) -> str:
    return f"bff:canary:{canary_id}:figures"


class CanaryFigures(Batched[tuple[str, int, str]]):
    """Both sides' counts of every canary this instance routed (written as the charts' are)."""

    def add(self, ctx: RequestContext, status: int, seconds: float) -> None:
        """One or_unavailable request of a canary's side (a few increments: the access path)."""
        if ctx.canary is None:
            return
        upstream = ctx.upstream_status
        if upstream is None and status < 500:  # a cached copy, a joined flight's follower: no platform's answer
            return
        canary_id, side = ctx.canary
        key = (canary_id, int(self.clock()) // SLOT_S, side)
        counts = self._counts.get(key)
        if counts is None:
            counts = self._open(key)
        counts[ANSWERS] += 1
        if status >= 500 or (upstream is not None and upstream >= 500 and upstream != 501):  # a stale copy hides one
            counts[ERRORS] += 1
        if ctx.refusal is not None:
            counts[REFUSED] += 1
        if ctx.route in _SIGN_INS:
            counts[LOGINS] += 1
            if status < 400 and ctx.refusal is None:
                counts[LOGINS_OK] += 1
        elif ctx.route in _MONEY:
            counts[MONEY] += 1
            if status < 500:
                counts[MONEY_OK] += 1
        counts[FIRST_BUCKET + bisect_left(BOUNDS_S, seconds)] += 1

    def _open(self, key: tuple[str, int, str]) -> list[int]:
        counts = self._counts[key] = [0] * WIDTH
        if self.redis is None:
            self._forget(key[1] - KEEP_S // SLOT_S)
        self._soon()
        return counts

    def _forget(self, before: int) -> None:
        for old in [key for key in self._counts if key[1] < before]:
            del self._counts[old]

    async def write(self, counts: Counts) -> None:
        assert self.redis is not None
        pipe = self.redis.pipeline(transaction=False)
        for canary_id in {key[0] for key in counts}:
            pipe.expire(figures_key(canary_id), KEEP_S)
        for (canary_id, slot, side), values in counts.items():
            for figure, n in enumerate(values):
                if n:
                    pipe.hincrby(figures_key(canary_id), f"{slot}:{side}:{figure}", n)
        try:
            await or_unavailable(pipe.execute())
        except StoreUnavailable as exc:  # these seconds are missing from the judgment
            self._log_failure("canary.figures_write_failed", exc)

    async def read(self, canary_id: str, since: float, until: float) -> dict[Side, SideFigures]:
        """Both sides' figures over the slots from `since` to `until` (epoch seconds), every
        instance's (this one's not yet written among them); raises `StoreUnavailable` with Redis away."""
        first, last = int(since) // SLOT_S, int(until) // SLOT_S
        summed: dict[str, list[int]] = {side: [0] * WIDTH for side in SIDES}
        for (of, slot, side), values in self._counts.items():
            if of == canary_id and first <= slot <= last and side in summed:
                _add(summed[side], values)
        if self.redis is not None:
            for (slot, side, figure), n in (await self._read_stored(canary_id, first, last)).items():
                if first <= slot <= last and side in summed:
                    summed[side][figure] += n
        return {side: side_figures(summed[side]) for side in SIDES}

    async def _read_stored(self, canary_id: str, first: int, last: int) -> dict[tuple[int, str, int], int]:
        """Every instance's counts of the canary from Redis: a check's window (a few slots) by
        name, a longer one by reading the whole hash."""
        assert self.redis is not None
        key = figures_key(canary_id)
        if last - first < MAX_NAMED_SLOTS:
            names = [
                f"{slot}:{side}:{figure}"
                for slot in range(first, last + 1)
                for side in SIDES
                for figure in range(WIDTH)
            ]
            values = await or_unavailable(self.redis.hmget(key, names))
            found: list[tuple[str | bytes, str | bytes]] = [
                (name, value) for name, value in zip(names, values, strict=True) if value is not None
            ]
        else:
            found = list((await or_unavailable(self.redis.hgetall(key))).items())
        counts = {}
        for name, value in found:
            slot, side, figure = (name.decode() if isinstance(name, bytes) else name).split(":")
            counts[(int(slot), side, int(figure))] = int(value)
        return counts


def _add(into: list[int], values: list[int]) -> None:
    for figure, n in enumerate(values):
        into[figure] += n


def side_figures(values: list[int]) -> SideFigures:
    """One side's counts as the judge reads them: shares of its answers, the p99 of its histogram."""
    answers = values[ANSWERS]
    return SideFigures(
        answers=answers,
        errors=_share(values[ERRORS], answers),
        refused=_share(values[REFUSED], answers),
        p99_s=quantile_s(values[FIRST_BUCKET:], 0.99) if answers else None,
        logins=values[LOGINS],
        login_success=_share(values[LOGINS_OK], values[LOGINS]),
        money=values[MONEY],
        money_success=_share(values[MONEY_OK], values[MONEY]),
    )


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None
