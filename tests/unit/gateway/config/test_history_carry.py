"""Moving from file mode to Redis keeps the configuration history and the overrides in force:
the file's versions carried into the stream once, under their own ids, however many instances
start at once; a stream already there is left alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio

from gateway.config.history import Author, FileVersions, entry
from gateway.config.history_carry import CarriedVersions
from gateway.store import keys
from tests.support.cluster import RedisServer

pytestmark = pytest.mark.anyio


ANN = Author("ann", "console", "moving to Redis")


@pytest.fixture
async def client(redis_server: RedisServer) -> AsyncIterator[redis.asyncio.Redis]:
    made = redis.asyncio.Redis(port=redis_server.port)
    await made.delete(keys.CONFIG_HISTORY, keys.CONFIG_VERSIONS, keys.CONFIG_OVERRIDES)
    yield made
    await made.delete(keys.CONFIG_HISTORY, keys.CONFIG_VERSIONS, keys.CONFIG_OVERRIDES)
    await made.aclose()


async def filed(path: Path) -> FileVersions:
    versions = FileVersions(path)
    await versions.note(
        entry("start", Author("gateway", "start"), "v1", None, {"aurora": {"api": "a"}}, {}, "f1", {"aurora": "s1"})
    )
    overrides = {"aurora": {"api": "http://b.test"}}
    before = ("v1", {"aurora": {"api": "a"}})
    await versions.commit(
        {}, entry("change", ANN, "v2", before, {"aurora": {"api": "http://b.test"}}, overrides, "f1", {"aurora": "s2"})
    )
    return versions


async def test_the_file_history_and_its_overrides_are_carried_once(tmp_path: Path, client: redis.asyncio.Redis) -> None:
    path = tmp_path / "history.jsonl"
    local = await filed(path)
    instances = [CarriedVersions(client, path, lambda: "f1") for _ in range(3)]
    seen = await asyncio.gather(*(versions.overrides() for versions in instances))
    assert seen == [{"aurora": {"api": "http://b.test"}}] * 3, "the configuration in force is the file's"
    page = await instances[1].page(10, None)
    assert [(e.version, e.id) for e in page] == [(e.version, e.id) for e in reversed(local.entries)]
    assert await client.xlen(keys.CONFIG_HISTORY) == 2, "once"
    found = await instances[2].find("v1")
    assert found is not None and found.action == "start", "a rollback finds the file's versions"


async def test_a_history_already_in_redis_is_left_alone(tmp_path: Path, client: redis.asyncio.Redis) -> None:
    await client.xadd(keys.CONFIG_HISTORY, {"v": "v9", "e": b"{}"})
    path = tmp_path / "history.jsonl"
    await filed(path)
    assert await CarriedVersions(client, path, lambda: "f1").overrides() is None
    assert await client.xlen(keys.CONFIG_HISTORY) == 1


async def test_the_history_of_another_skins_file_is_not_carried(tmp_path: Path, client: redis.asyncio.Redis) -> None:
    path = tmp_path / "history.jsonl"
    await filed(path)  # ran the file "f1"
    assert await CarriedVersions(client, path, lambda: "f2").overrides() is None, "no overrides made for another file"
    assert await client.exists(keys.CONFIG_HISTORY) == 0
