"""The money records' last writes are made again on a new primary that never got them (a
planned Sentinel failover loses what the old primary took after the promotion): a finished
withdrawal is recorded there and frees the player's slot, a given-back claim stays given back,
and a call still in flight is held there, so its retry is joined instead of paid twice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gateway.store import keys
from gateway.store.address import SharedRedis
from gateway.store.journal import KEEP_S, Journal
from gateway.store.redis import FailFast, RedisShared, connect
from gateway.store.sentinel import close
from tests.support.cluster import RedisServer, require_redis_server
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio


@pytest.fixture
def new_primary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(require_redis_server(), free_port(), tmp_path_factory.mktemp("promoted"))
    server.start()
    yield server
    server.stop()


def names(key: str) -> tuple[str, str, str]:
    record = keys.of_skin("aurora", keys.IDEMPOTENCY, key)
    return record, record + ":holder", keys.exclusive_slot("aurora", "s-" + key, "cashout")


async def test_a_new_primary_gets_the_finished_the_given_back_and_the_in_flight_calls(
    redis_server: RedisServer, new_primary: RedisServer
) -> None:
    redis = connect(SharedRedis(url=redis_server.url))
    shared = RedisShared(redis, FailFast())
    try:
        paid, refused, flying = names("paid-withdrawal"), names("refused-withdrawal"), names("flying-withdrawal")
        for record, lease, slot in (paid, refused, flying):
            assert (await shared.claim(record, b"in flight", 60_000, lease, b"i1:" + record.encode(), 10_000, slot))[
                0
            ] == "claimed"
        await shared.set_and_release(paid[0], b"paid", 60_000, paid[1], b"i1:" + paid[0].encode(), paid[2])
        await shared.release(refused[0], refused[1], b"i1:" + refused[0].encode(), refused[2])

        redis.connection_pool.connection_kwargs["port"] = new_primary.port  # the failover: none of it was copied
        await redis.connection_pool.disconnect()
        redis.connection_pool.reset()  # type: ignore[no-untyped-call]
        await shared.replay()
    finally:
        await close(redis)

    with new_primary.client() as promoted:
        assert promoted.get(paid[0]) == b"paid", "the finished withdrawal's outcome is there to replay"
        assert promoted.exists(paid[1], paid[2]) == 0, "and the player's next withdrawal is not told one is in progress"
        assert promoted.exists(*refused) == 0, "a claim given back is not claimed again"
        assert promoted.get(flying[0]) == b"in flight"
        assert promoted.get(flying[1]) == b"i1:" + flying[0].encode(), "a retry of the call in flight waits for it"
        assert 0 < promoted.pttl(flying[1]) <= 10_000, "for what is left of its lease"
        assert promoted.exists(flying[2]) == 1


def test_the_journal_keeps_seconds_not_everything() -> None:
    now = [0.0]
    journal = Journal(clock=lambda: now[0])

    async def nothing(_ago: float) -> None:
        return None

    journal.wrote("claim", "a", nothing)
    now[0] = KEEP_S / 2
    journal.wrote("claim", "b", nothing)
    journal.wrote("finish", "b", nothing)
    assert len(journal) == 2, "a record's finish replaces its claim"
    now[0] = KEEP_S + 1
    journal.wrote("claim", "c", nothing)
    assert len(journal) == 2, "older than KEEP_S is forgotten"
