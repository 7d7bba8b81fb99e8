"""Where the shared Redis is, from the environment: one address or Redis Sentinel. An operator's
mistake stops the start with a message naming the variable; the sentinels' password is never
shown."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio.sentinel import MasterNotFoundError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError

from gateway.config.settings import Settings
from gateway.store import StoreUnavailable
from gateway.store.address import SharedRedis
from gateway.store.redis import FailFast
from gateway.store.sentinel import Sentinels

SENTINELS = {"REDIS_SENTINELS": "10.0.0.1:26379, [fd00::2]:26380,sentinel-3:26379", "REDIS_SENTINEL_MASTER": "bff"}


def test_no_redis_settings_is_the_memory_store() -> None:
    assert Settings.from_env({}).shared_redis is None


def test_redis_url_alone_is_one_address() -> None:
    shared = Settings.from_env({"REDIS_URL": "rediss://default:s3cret@redis.example:6380/2"}).shared_redis
    assert shared is not None and not shared.sentinels and shared.wait_replicas == 0
    assert shared.describe() == "rediss://redis.example:6380/2"


def test_sentinels_name_the_primary_and_its_password_is_never_shown() -> None:
    env = {**SENTINELS, "REDIS_SENTINEL_PASSWORD": "sentinel-s3cret", "REDIS_WAIT_REPLICAS": "1"}
    settings = Settings.from_env(env)
    shared = settings.shared_redis
    assert shared is not None
    assert shared.sentinels == (("10.0.0.1", 26379), ("fd00::2", 26380), ("sentinel-3", 26379))
    assert (shared.master, shared.sentinel_password, shared.wait_replicas) == ("bff", "sentinel-s3cret", 1)
    assert shared.describe() == "sentinel:bff@10.0.0.1:26379,fd00::2:26380,sentinel-3:26379"
    assert "s3cret" not in repr(settings) and "s3cret" not in shared.describe()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"REDIS_SENTINELS": "10.0.0.1:26379"}, "REDIS_SENTINELS needs REDIS_SENTINEL_MASTER"),
        ({"REDIS_SENTINEL_MASTER": "bff"}, "REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not"),
        (
            {"REDIS_URL": "redis://r:6379/0", "REDIS_SENTINEL_MASTER": "bff"},
            "REDIS_SENTINEL_MASTER needs REDIS_SENTINELS",
        ),
        ({"REDIS_SENTINEL_PASSWORD": "x"}, "REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not"),
        ({**SENTINELS, "REDIS_SENTINELS": "10.0.0.1"}, "'10.0.0.1' is not host:port"),
        ({**SENTINELS, "REDIS_SENTINELS": "10.0.0.1:0"}, "'10.0.0.1:0' is not host:port"),
        ({**SENTINELS, "REDIS_WAIT_REPLICAS": "one"}, "REDIS_WAIT_REPLICAS must be a whole number"),
        ({"REDIS_WAIT_REPLICAS": "1"}, "REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_SENTINELS"),
    ],
)
def test_a_mistake_stops_the_start_naming_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings.from_env(env)


def test_settings_built_in_code_are_checked_the_same_way() -> None:
    with pytest.raises(ValueError, match="needs REDIS_URL or REDIS_SENTINELS"):
        SharedRedis()


class _FakeSentinel:
    def __init__(self, answer: dict[str, dict[str, object]] | Exception) -> None:
        self.answer = answer

    async def sentinel_masters(self) -> dict[str, dict[str, object]]:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def _state(port: int, epoch: int, down: bool = False) -> dict[str, dict[str, object]]:
    return {
        "bff": {
            "ip": "10.0.0.9",
            "port": port,
            "config-epoch": epoch,
            "is_master": True,
            "is_sdown": down,
            "is_odown": False,
            "num-other-sentinels": 2,
        }
    }


def test_the_sentinel_with_the_newest_configuration_is_believed() -> None:
    """Right after a failover the sentinels that lost the election still name the old primary
    (until the winner's next hello): an instance believing them would write to a primary that is
    about to be demoted, and take the instances already on the new one for dead."""
    sentinels = Sentinels([("127.0.0.1", 1)])
    sentinels.sentinels = [
        _FakeSentinel(_state(6379, 1)),
        _FakeSentinel(RedisConnectionError("away")),  # type: ignore[list-item]
        _FakeSentinel(_state(6380, 2)),
        _FakeSentinel(_state(6381, 3, down=True)),
    ]
    assert asyncio.run(sentinels.discover_master("bff")) == ("10.0.0.9", 6380)
    sentinels.sentinels = [_FakeSentinel(_state(6381, 3, down=True)), _FakeSentinel(RedisConnectionError("x"))]  # type: ignore[list-item]
    with pytest.raises(MasterNotFoundError):  # a 503, until a primary is named
        asyncio.run(sentinels.discover_master("bff"))


def test_a_demoted_primary_is_a_503_and_its_connections_are_dropped() -> None:
    """Behind one address (a managed Redis's DNS name) pooled connections would stay on the
    demoted primary and every write would fail until they were recycled."""
    dropped: list[bool] = []

    async def drop() -> None:
        dropped.append(True)

    async def write_to_a_replica() -> None:
        raise ReadOnlyError("You can't write against a read only replica.")

    with pytest.raises(StoreUnavailable):
        asyncio.run(FailFast(on_readonly=drop)(write_to_a_replica))
    assert dropped == [True]
