"""Changes scoped to the skins they touch: changes to two skins made from one version both apply
(one process, and two instances sharing Redis), two changes to one skin still make one success
and one conflict, a rollback is checked on every skin it touches, and a conflict names who changed
what and when."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import Redis

from gateway.config import skins
from gateway.config.history import Author, FileVersions, RedisVersions, skin_versions
from gateway.config.live import LiveConfig
from gateway.console import conflicts
from gateway.store.address import SharedRedis
from gateway.store.redis import connect
from tests.support.cluster import RedisServer
from tests.support.gateway import ALLOWED, UPSTREAM

pytestmark = pytest.mark.anyio

MARIA, JOAO = Author("maria", "console", "moving the sportsbook"), Author("joao", "console", "moving the casino")


def pointing(skin: str, upstream: str, url: str) -> Any:
    def change(overrides: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        return {**overrides, skin: {**overrides.get(skin, {}), upstream: url}}

    return change


def built_in(**more: Any) -> LiveConfig:
    return LiveConfig(None, lambda: skins.builtin(UPSTREAM), allowed=ALLOWED, **more)


def test_a_skins_version_moves_with_its_own_part_only() -> None:
    data = {"skins": [{"id": "aurora", "name": "A"}, {"id": "pampa", "name": "P"}]}
    before = skin_versions(data, {})
    after = skin_versions(data, {"pampa": {"capi": "http://capi-2.test"}})
    assert after["aurora"] == before["aurora"] and after["pampa"] != before["pampa"]
    renamed = skin_versions({"skins": [{"id": "aurora", "name": "B"}, {"id": "pampa", "name": "P"}]}, {})
    assert renamed["aurora"] != before["aurora"] and renamed["pampa"] == before["pampa"]


async def test_changes_to_two_skins_from_one_version_both_apply_and_one_skin_conflicts() -> None:
    config = built_in(versions=FileVersions(None))
    await config.start()
    base = config.version
    pampa = await config.commit(pointing("pampa", "capi", "http://capi-2.test"), base=base, author=JOAO)
    aurora = await config.commit(pointing("aurora", "sbapi", "http://sb-2.test"), base=base, author=MARIA)
    assert (pampa.result, aurora.result) == ("applied", "applied")
    bases = config.skins.bases()
    assert (bases["pampa"]["capi"], bases["aurora"]["sbapi"]) == ("http://capi-2.test", "http://sb-2.test")

    late = await config.commit(pointing("aurora", "sbapi", "http://sb-3.test"), base=base, author=JOAO)
    assert (late.result, late.moved) == ("conflict", ["aurora"])
    assert config.skins.bases()["aurora"]["sbapi"] == "http://sb-2.test", "the conflict changed nothing"
    blamed = await conflicts.since(config, base, late)
    assert blamed is not None and [(c.skin, c.upstream, c.after, c.who, c.via) for c in blamed] == [
        ("aurora", "sbapi", "http://sb-2.test", "maria", "console")
    ]
    assert blamed[0].at is not None and blamed[0].version == aurora.version
    said = conflicts.sentence(blamed)
    assert said.startswith("maria changed aurora's sbapi to http://sb-2.test at ") and said.endswith(" UTC")


async def test_a_rollback_is_checked_on_every_skin_it_touches() -> None:
    config = built_in(versions=FileVersions(None))
    await config.start()
    first = config.version
    await config.commit(pointing("pampa", "capi", "http://capi-2.test"), base=first, author=JOAO)
    seen = config.version
    await config.commit(pointing("aurora", "api", "http://api-2.test"), base=seen, author=MARIA)
    # From `seen`, going back to `first` also undoes aurora's wallet, which moved since `seen`.
    back = await config.commit(lambda _: {}, base=seen, author=JOAO, action="rollback")
    assert (back.result, back.moved) == ("conflict", ["aurora"])
    again = await config.commit(lambda _: {}, base=config.version, author=JOAO, action="rollback")
    assert again.result == "applied" and {c.skin for c in again.changes} == {"aurora", "pampa"}


async def test_an_unknown_base_is_a_conflict_naming_no_skin() -> None:
    config = built_in(versions=FileVersions(None))
    await config.start()
    made = await config.commit(pointing("pampa", "capi", "http://capi-2.test"), base="0123456789ab", author=JOAO)
    assert (made.result, made.moved) == ("conflict", [])
    assert await conflicts.since(config, "0123456789ab", made) is None


@pytest.mark.redis
async def test_two_instances_changing_two_skins_at_once_both_apply(redis_server: RedisServer) -> None:
    redis: Redis = connect(SharedRedis(url=redis_server.url))
    await redis.flushdb()
    one, two = (
        built_in(redis=redis, versions=RedisVersions(redis)),
        built_in(redis=redis, versions=RedisVersions(redis)),
    )
    await one.start()
    await two.start()
    base = one.version
    made = await asyncio.gather(
        one.commit(pointing("pampa", "capi", "http://capi-2.test"), base=base, author=JOAO),
        two.commit(pointing("aurora", "sbapi", "http://sb-2.test"), base=base, author=MARIA),
    )
    assert [m.result for m in made] == ["applied", "applied"]
    for config in (one, two):
        await config.commit(lambda o: o, base=None, author=JOAO)  # changes nothing; takes the other's up
        bases = config.skins.bases()
        assert (bases["pampa"]["capi"], bases["aurora"]["sbapi"]) == ("http://capi-2.test", "http://sb-2.test")
    assert one.version == two.version, "one configuration, one version, for 'live on N/M'"
    history = await one.versions.page(10, None)
    assert sorted(e.who for e in history if e.action == "change") == ["joao", "maria"]

    late = await one.commit(pointing("aurora", "sbapi", "http://sb-3.test"), base=base, author=JOAO)
    assert (late.result, late.moved) == ("conflict", ["aurora"])
    await redis.aclose()
