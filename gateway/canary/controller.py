"""The one canary controller of the cluster: it judges each running canary, moves its steps,
rolls it back or promotes it.

Every instance runs a `Controller`, but only the holder of the lease (`bff:canary-lease`, taken
with `SET NX PX`, renewed every `TICK_S`, given back by compare-and-set) acts; killed, its lease
expires within `LEASE_MS` and another instance takes it. An instance contends for the lease only
while its board shows a running canary, so an idle cluster sends Redis nothing for it.

The holder checks each running canary every `check_every_s` on the window since its last check
(`gateway.canary.judge`). `failed_checks` failed checks in one step roll it back; a step held
`hold_s` whose last check passed moves to the next step; the last step passing promotes the
change to a normal configuration version (`LiveConfig.commit`, by "system" via "canary"). Every
move is one compare-and-set of the record (`CanaryStore.update`): an operator's pause that came
first wins, and a controller that lost its lease mid-round cannot move a step twice.

Redis lost: the lease cannot be renewed, so nothing is judged and nothing moves until it is back;
a step's hold counts only judged time (`_judged`: a window far longer than `check_every_s` adds
only `check_every_s` to the step's time).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

import msgspec
import structlog

from gateway.canary.figures import SLOT_S
from gateway.canary.judge import judge
from gateway.canary.model import Canary, Side, SideFigures, StepVerdict
from gateway.canary.store import CanaryStore
from gateway.state.session import REMEMBER_SECONDS
from gateway.store import Shared, StoreUnavailable, keys

log = structlog.get_logger("gateway.canary")

TICK_S = 1.0
"""How often the holder renews its lease and looks at the running canaries."""
LEASE_MS = 4000
"""The lease's life: a killed holder's canaries wait at most this long for another instance."""
WRITE_GRACE_S = 1.0
"""A slot is judged once every instance had this long to write its counts (a quarter second after counting)."""
MAX_VERDICTS = 360
"""The record keeps this many of its newest verdicts (an hour of checks at 10 s)."""
Move = Literal["checked", "step", "rolled-back", "promote"]


class Figures(Protocol):
    """Both sides' figures over a window, summed across instances (`gateway.canary.figures`)."""

    async def read(self, canary_id: str, since: float, until: float) -> dict[Side, SideFigures]: ...


class Effects(Protocol):
    """What the controller does outside its records (`gateway.canary.parts`)."""

    def base(self, skin: str, upstream: str) -> str | None:
        """The base URL the skin's configuration has for the upstream now."""
        ...

    async def promote(self, canary: Canary, reason: str) -> tuple[str | None, str | None]:
        """The canary's new base URL made the configuration's: (the version, or None and why not)."""
        ...

    async def told(self, canary: Canary, what: str, who: str, reason: str | None) -> None:
        """A move recorded in the audit trail and the event timeline."""
        ...


class Lease:
    """The controller's lease in the shared store: one holder in the cluster."""

    def __init__(self, shared: Shared, ttl_ms: int = LEASE_MS) -> None:
        self.shared = shared
        self.ttl_ms = ttl_ms
        self.token = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}".encode()
        """Names its holder (host and process), for whoever looks at the key."""
        self.held = False

    async def hold(self) -> bool:
        """Renews the lease while it is ours (still, after a blip of the store), else takes it if
        it is free: whether we hold it."""
        try:
            self.held = await self.shared.swap(keys.CANARY_LEASE, self.token, self.token, self.ttl_ms)
            if not self.held:
                self.held = await self.shared.set_nx(keys.CANARY_LEASE, self.token, self.ttl_ms)
                if self.held:
                    log.info("canary.lease_taken", token=self.token.decode())  # this instance judges now
        except StoreUnavailable:
            self.held = False  # it expires by itself; meanwhile nothing is judged
        return self.held

    async def release(self) -> None:
        """Gives the lease up if it is still ours (compare-and-delete)."""
        if not self.held:
            return
        self.held = False
        with contextlib.suppress(StoreUnavailable):  # else it expires by itself
            await self.shared.release(keys.CANARY_LEASE, keys.CANARY_LEASE, self.token)


@dataclass
class Controller:
    store: CanaryStore
    figures: Figures
    lease: Lease
    effects: Effects | None = None
    """Set when the gateway is made (`Canaries.bind`); without it nothing is judged."""
    clock: Callable[[], float] = time.time
    slot_s: float = SLOT_S
    """The figures' slot (`gateway.canary.figures`): the shortest window a check judges."""
    grace_s: float = WRITE_GRACE_S

    async def drive(self) -> None:
        try:
            while True:
                await asyncio.sleep(TICK_S)
                try:
                    await self.round()
                except StoreUnavailable as exc:
                    log.warning("canary.round_unavailable", error=str(exc))
                except Exception:
                    log.exception("canary.round_failed")
        finally:
            await self.lease.release()

    async def round(self) -> None:
        """One look at the running canaries, if this instance holds the lease."""
        if not self.store.board.running() or self.effects is None:
            await self.lease.release()
            return
        if not await self.lease.hold():
            return
        for canary in self.store.board.all():
            if canary.state == "running" and self.lease.held:
                await self.check(canary)

    async def check(self, seen: Canary) -> None:
        """Judges `seen` if its check is due, and moves it as its verdict says."""
        assert self.effects is not None
        now = self.clock()
        if (window := self.window(seen, now)) is None:
            return
        if self.effects.base(seen.skin, seen.upstream) != seen.before:
            await self.end(seen, "aborted", "the skin's upstream was changed meanwhile", who="system")
            return
        since, until = window
        sides = await self.figures.read(seen.id, since, until - 0.001)  # the slots before `until`
        verdict = judge(
            sides.get("old", SideFigures()), sides.get("new", SideFigures()), seen.thresholds,
            at=now, step=seen.step, share=seen.share,
        )  # fmt: skip
        moves: list[Move] = []
        every = seen.thresholds.check_every_s

        def change(canary: Canary) -> Canary | None:
            if canary.id != seen.id or canary.revision != seen.revision or canary.state != "running":
                return None  # moved meanwhile (an operator, another holder): judged again next round
            judged, move = _judged(canary, verdict, now, until, max(every, self.slot_s) + self.slot_s + TICK_S)
            moves.append(move)
            return judged

        moved = await self.store.update(seen.skin, change)
        if moved is None:
            return
        if moves[-1] == "step":
            await self.effects.told(moved, "step", "system", f"step {moved.step + 1}: {_percent(moved.share)}")
        elif moves[-1] == "rolled-back":
            await self.effects.told(moved, "rolled-back", "system", moved.ended_reason)
        elif moves[-1] == "promote":
            await self.promote(moved, "system", "every step passed")

    def window(self, seen: Canary, now: float) -> tuple[float, float] | None:
        """The check's window when one is due: from the last one's end to the start of the slot
        still being counted (figures are summed by slot: a slot is judged once, whole, after every
        instance had `grace_s` to write it)."""
        since = seen.last_check or seen.step_started
        until = math.floor((now - self.grace_s) / self.slot_s) * self.slot_s
        due = now - since >= seen.thresholds.check_every_s and until > since
        return (since, until) if due else None

    async def promote(self, canary: Canary, who: str, reason: str) -> Canary | None:
        """The canary's change made the configuration's, and the record promoted (or rolled back
        when the configuration refuses it)."""
        assert self.effects is not None
        version, refused = await self.effects.promote(canary, reason)
        if version is None:
            return await self.end(canary, "rolled-back", f"the promotion was refused: {refused}", who="system")

        def promoted(known: Canary) -> Canary | None:
            if known.id != canary.id or not known.live:
                return None
            now = self.clock()
            ended = msgspec.structs.replace(known, state="promoted", ended=now, ended_by=who, ended_reason=reason)
            return msgspec.structs.replace(
                ended, promoted_version=version, drain_until=now + REMEMBER_SECONDS
            )  # a session's longest life

        moved = await self.store.update(canary.skin, promoted)
        if moved is None:
            log.error("canary.promoted_after_it_ended", canary=canary.id, version=version)
            return None
        await self.effects.told(moved, "promoted", who, reason)
        return moved

    async def end(
        self, canary: Canary, state: Literal["rolled-back", "aborted"], reason: str, *, who: str
    ) -> Canary | None:
        """A live canary ended without promotion: its new side gets no more sessions."""
        assert self.effects is not None

        def ended(known: Canary) -> Canary | None:
            if known.id != canary.id or not known.live:
                return None
            return msgspec.structs.replace(known, state=state, ended=self.clock(), ended_by=who, ended_reason=reason)

        moved = await self.store.update(canary.skin, ended)
        if moved is not None and who == "system":
            await self.effects.told(moved, state, who, reason)
        return moved


def _judged(canary: Canary, verdict: StepVerdict, now: float, until: float, longest_s: float) -> tuple[Canary, Move]:
    """The record after the check of the window up to `until`: its verdict kept, and where it goes.
    A window longer than a check's `longest_s` had no holder judging it (killed, Redis away): that
    time does not count in the step's hold."""
    window = until - (canary.last_check or canary.step_started)
    unjudged = max(0.0, window - longest_s)
    verdicts = [*canary.verdicts, verdict][-MAX_VERDICTS:]
    failed = canary.failed + (verdict.outcome == "failed")
    judged = msgspec.structs.replace(
        canary, verdicts=verdicts, failed=failed, last_check=until, step_started=canary.step_started + unjudged
    )
    if failed >= canary.thresholds.failed_checks:
        reason = f"{'; '.join(verdict.reasons)}, {failed} checks"
        ended = msgspec.structs.replace(judged, state="rolled-back", ended=now, ended_by="system", ended_reason=reason)
        return ended, "rolled-back"
    held = now - judged.step_started >= canary.steps[canary.step].hold_s
    if verdict.outcome != "passed" or not held:
        return judged, "checked"
    if canary.step + 1 == len(canary.steps):
        return judged, "promote"
    return msgspec.structs.replace(judged, step=canary.step + 1, step_started=now, failed=0), "step"


def _percent(share: float) -> str:
    return f"{share * 100:g} %"
