"""The canary's records and its controller in one process: one live canary per skin (two starts at
once on one Redis: one wins), every instance's board following a write, the lease one holder keeps,
and the controller's moves (steps, rollback with its reason, promotion once) on a clock the test turns."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import msgspec
import pytest
from redis.asyncio import Redis

from gateway.canary.controller import Controller, Lease
from gateway.canary.model import Canary, Side, SideFigures, Step, Thresholds
from gateway.canary.store import CanaryBoard, CanaryStore
from gateway.store import StoreUnavailable, keys
from gateway.store.address import SharedRedis
from gateway.store.memory import MemoryShared
from gateway.store.redis import FailFast, RedisShared, connect
from tests.support.cluster import RedisServer

pytestmark = pytest.mark.anyio
T = TypeVar("T")

OLD, NEW = "http://old.test", "http://new.test"
GOOD = SideFigures(answers=100, errors=0.0, refused=0.0, p99_s=0.1)
SLOW = SideFigures(answers=100, errors=0.0, refused=0.0, p99_s=0.812)


def canary(skin: str = "aurora", **more: object) -> Canary:
    steps = [Step(0.1, 10.0), Step(0.5, 10.0), Step(1.0, 10.0)]
    thresholds = Thresholds(check_every_s=2.0, min_answers=10)
    fields: dict[str, object] = {"id": f"{skin}-1", "steps": steps, "thresholds": thresholds, **more}
    return Canary(skin=skin, upstream="api", before=OLD, after=NEW, **fields)  # type: ignore[arg-type]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Figures:
    new: SideFigures = GOOD
    windows: list[tuple[float, float]] = field(default_factory=list)

    async def read(self, canary_id: str, since: float, until: float) -> dict[Side, SideFigures]:
        self.windows.append((since, until))  # `until`: within the last slot judged
        return {"old": GOOD, "new": self.new}


@dataclass
class Effects:
    base_now: str = OLD
    told_moves: list[tuple[str, str, str | None]] = field(default_factory=list)
    promotions: int = 0

    def base(self, skin: str, upstream: str) -> str | None:
        return self.base_now

    async def promote(self, canary: Canary, reason: str) -> tuple[str | None, str | None]:
        self.promotions += 1
        self.base_now = canary.after
        return "v-promoted", None

    async def told(self, canary: Canary, what: str, who: str, reason: str | None) -> None:
        self.told_moves.append((what, who, reason))


def memory_store() -> CanaryStore:
    return CanaryStore(MemoryShared(), None, CanaryBoard(), lambda: ["aurora", "pampa"])


def controller(store: CanaryStore, clock: Clock, figures: Figures | None = None) -> tuple[Controller, Effects]:
    effects = Effects()
    made = Controller(store, figures or Figures(), Lease(store.shared), effects, clock, slot_s=1.0, grace_s=0.0)
    return made, effects


async def turn(made: Controller, clock: Clock, seconds: float, every: float = 1.0) -> None:
    for _ in range(int(seconds / every)):
        clock.now += every
        await made.round()


# --- records ------------------------------------------------------------------------------


async def test_a_skin_has_one_live_canary_and_a_new_one_may_start_once_it_ended() -> None:
    store = memory_store()
    won, first = await store.start(canary())
    assert (won, first.revision) == (True, 1)
    lost, live = await store.start(canary(id="aurora-2"))
    assert (lost, live.id) == (False, "aurora-1"), "the second start names the live one"
    assert (await store.start(canary("pampa")))[0] is True, "other skins have their own"
    await store.update("aurora", lambda c: msgspec.structs.replace(c, state="aborted"))
    again, second = await store.start(canary(id="aurora-3"))
    assert (again, second.id, second.revision) == (True, "aurora-3", 3)
    assert store.board.current("aurora") is second


async def test_the_board_names_a_live_canary_and_a_promoted_one_only_while_it_drains() -> None:
    clock = Clock()
    board = CanaryBoard(clock)
    board.saw("aurora", canary(state="paused"))
    assert board.current("aurora") is not None and board.running() is False
    board.saw("aurora", canary(state="promoted", drain_until=clock.now + 60, revision=2))
    assert board.current("aurora") is not None
    clock.now += 61
    assert board.current("aurora") is None, "drained: the old side is gone"
    board.saw("aurora", canary(state="rolled-back", revision=3))
    assert board.current("aurora") is None and board.latest("aurora") is not None
    board.saw("aurora", canary(state="running", revision=1))
    assert board.latest("aurora").state == "rolled-back", "a late, older record is ignored"  # type: ignore[union-attr]


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    client = connect(SharedRedis(url=redis_server.url))
    await client.flushall()
    yield client
    await client.aclose()


def redis_store(redis: Redis) -> CanaryStore:
    return CanaryStore(RedisShared(redis, FailFast()), redis, CanaryBoard(), lambda: ["aurora"])


async def test_two_starts_at_once_on_two_instances_one_wins(redis: Redis) -> None:
    one, two = redis_store(redis), redis_store(redis)
    results = await asyncio.gather(one.start(canary(id="aurora-a")), two.start(canary(id="aurora-b")))
    assert sorted(won for won, _ in results) == [False, True]
    winner = next(c.id for won, c in results if won)
    assert {c.id for _, c in results} == {winner}, "the loser is told the winner's id"
    stored = msgspec.json.decode(await redis.get(keys.CANARY + "aurora") or b"", type=Canary)
    assert (stored.id, stored.revision) == (winner, 1)


async def test_every_instance_board_follows_a_write_at_once(redis: Redis) -> None:
    writer, reader = redis_store(redis), redis_store(redis)
    listening = asyncio.ensure_future(reader.listen())
    try:
        await until(lambda: redis.pubsub_numsub(keys.CANARY_CHANNEL), lambda n: n[0][1] >= 1)
        await writer.start(canary())

        async def seen() -> Canary | None:
            return reader.board.current("aurora")

        await until(seen, lambda c: c is not None, within_s=1)
        await writer.update("aurora", lambda c: msgspec.structs.replace(c, state="paused"))
        await until(seen, lambda c: c is not None and c.state == "paused", within_s=1)
    finally:
        listening.cancel()


async def until(read: Callable[[], Awaitable[T]], check: Callable[[T], bool], within_s: float = 3.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within_s
    while not check(await read()):
        assert loop.time() < deadline, "not within the time"
        await asyncio.sleep(0.01)


# --- the lease ----------------------------------------------------------------------------


async def test_one_lease_holder_and_the_next_takes_over_once_it_expires() -> None:
    shared = MemoryShared()
    first, second = Lease(shared, ttl_ms=200), Lease(shared, ttl_ms=200)
    assert (await first.hold(), await second.hold()) == (True, False)
    assert await first.hold() is True, "renewed"
    await asyncio.sleep(0.25)  # the holder stopped renewing (killed): its lease expires
    assert await second.hold() is True
    assert await first.hold() is False, "a lease it lost is not taken back while the other renews"
    await second.release()
    assert await first.hold() is True, "given back: free at once"


# --- the controller -----------------------------------------------------------------------


async def test_a_healthy_canary_moves_through_every_step_and_is_promoted_once() -> None:
    store, clock = memory_store(), Clock()
    await store.start(canary(started=clock.now, step_started=clock.now))
    made, effects = controller(store, clock)
    await turn(made, clock, 10)
    assert store.board.latest("aurora").step == 1  # type: ignore[union-attr]
    await turn(made, clock, 25)
    ended = store.board.latest("aurora")
    assert ended is not None and (ended.state, ended.promoted_version, effects.promotions) == (
        "promoted",
        "v-promoted",
        1,
    )
    assert ended.drain_until is not None and ended.drain_until >= clock.now + 29 * 86400, "a session's longest life"
    assert [move for move, _, _ in effects.told_moves] == ["step", "step", "promoted"]
    assert all(who == "system" for _, who, _ in effects.told_moves)
    await turn(made, clock, 10)
    assert effects.promotions == 1, "promoted once"


async def test_a_slow_canary_rolls_itself_back_after_its_failed_checks_with_the_reason() -> None:
    store, clock = memory_store(), Clock()
    await store.start(canary(started=clock.now, step_started=clock.now))
    made, effects = controller(store, clock, Figures(new=SLOW))
    await turn(made, clock, 4)
    assert store.board.latest("aurora").state == "running"  # type: ignore[union-attr]  # two failed checks
    await turn(made, clock, 2)
    ended = store.board.latest("aurora")
    assert ended is not None and ended.state == "rolled-back" and ended.step == 0
    assert ended.ended_reason == "p99 812 ms > 500 ms at 10 %, 3 checks"
    assert effects.told_moves == [("rolled-back", "system", ended.ended_reason)] and effects.promotions == 0
    assert [v.outcome for v in ended.verdicts] == ["failed"] * 3


async def test_checks_are_judged_every_check_interval_on_the_window_since_the_last() -> None:
    store, clock, figures = memory_store(), Clock(), Figures(new=SideFigures(answers=3))
    await store.start(canary(started=clock.now, step_started=clock.now))
    made, _ = controller(store, clock, figures)
    await turn(made, clock, 30)
    windows = [(since, round(until, 2)) for since, until in figures.windows[:3]]
    assert windows == [(1000.0, 1002.0), (1002.0, 1004.0), (1004.0, 1006.0)], "each slot once"
    assert store.board.latest("aurora").step == 0, "too few answers: no step moves"  # type: ignore[union-attr]


async def test_a_paused_canary_is_not_judged_and_the_lease_is_given_up() -> None:
    store, clock, figures = memory_store(), Clock(), Figures()
    await store.start(canary(state="paused"))
    made, _ = controller(store, clock, figures)
    await turn(made, clock, 10)
    assert figures.windows == [] and made.lease.held is False


async def test_a_canary_whose_upstream_was_changed_meanwhile_is_aborted() -> None:
    store, clock = memory_store(), Clock()
    await store.start(canary(started=clock.now, step_started=clock.now))
    made, effects = controller(store, clock)
    effects.base_now = "http://someone-else.test"
    await turn(made, clock, 2)
    ended = store.board.latest("aurora")
    assert ended is not None and (ended.state, ended.ended_reason) == (
        "aborted",
        "the skin's upstream was changed meanwhile",
    )


async def test_time_nobody_judged_does_not_count_in_the_steps_hold() -> None:
    store, clock = memory_store(), Clock()
    await store.start(canary(started=clock.now, step_started=clock.now))
    made, _ = controller(store, clock)
    await turn(made, clock, 4)  # 4 s judged
    clock.now += 60  # Redis away, or no instance held the lease
    await turn(made, clock, 2)
    assert store.board.latest("aurora").step == 0, "6 s of 10 judged"  # type: ignore[union-attr]
    await turn(made, clock, 6)
    assert store.board.latest("aurora").step == 1  # type: ignore[union-attr]


async def test_an_operators_pause_that_lands_first_wins_over_the_controllers_move() -> None:
    store, clock = memory_store(), Clock()
    await store.start(canary(started=clock.now, step_started=clock.now - 60, last_check=clock.now - 5))
    made, effects = controller(store, clock)
    seen = store.board.latest("aurora")
    assert seen is not None
    await store.update("aurora", lambda c: msgspec.structs.replace(c, state="paused"))
    await made.check(seen)  # judged from the record it saw before the pause
    after = store.board.latest("aurora")
    assert after is not None and (after.state, after.step, effects.told_moves) == ("paused", 0, [])


async def test_a_check_judges_only_whole_slots_each_once_after_every_instance_wrote_them() -> None:
    store, clock, figures = memory_store(), Clock(), Figures()
    await store.start(canary(started=clock.now, step_started=clock.now))
    made = Controller(store, figures, Lease(store.shared), Effects(), clock, slot_s=5.0, grace_s=1.0)
    await turn(made, clock, 12)
    assert [(since, round(until)) for since, until in figures.windows] == [(1000.0, 1005.0), (1005.0, 1010.0)]


class Away(MemoryShared):
    """A store that can be made unreachable, as Redis lost is (`StoreUnavailable` on every call)."""

    away = False

    async def get(self, key: str) -> bytes | None:
        self._reached()
        return await super().get(key)

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool:
        self._reached()
        return await super().set_nx(key, value, ttl_ms)

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        self._reached()
        return await super().swap(key, expected, value, ttl_ms)

    def _reached(self) -> None:
        if self.away:
            raise StoreUnavailable("ConnectionError")


async def test_with_the_store_lost_nothing_is_judged_the_board_keeps_routing_and_judging_resumes_after() -> None:
    shared, clock = Away(), Clock()
    store = CanaryStore(shared, None, CanaryBoard(), lambda: ["aurora"])
    await store.start(canary(started=clock.now, step_started=clock.now))
    figures = Figures(new=SLOW)
    made = Controller(store, figures, Lease(shared), Effects(), clock, slot_s=1.0, grace_s=0.0)
    await turn(made, clock, 2)
    assert len(figures.windows) == 1
    shared.away = True
    await turn(made, clock, 30)  # `run` logs and goes on: `round` itself says the lease is not held
    assert len(figures.windows) == 1 and made.lease.held is False, "no holder: no check, no rollback"
    assert store.board.current("aurora") is not None, "the instances route by the last record they saw"
    shared.away = False
    await turn(made, clock, 4)
    ended = store.board.latest("aurora")
    assert ended is not None and ended.state == "rolled-back" and ended.ended_reason.endswith("3 checks")  # type: ignore[union-attr]
