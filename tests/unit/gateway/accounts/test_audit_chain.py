"""The trail's hash chain: intact as written by one or several instances, and an edited byte, a
deleted, forged or replayed entry reported at the first broken link, in the file and the stream;
the stream's bound is no tampering; the file's trail carried into Redis once; one event of the
cluster recorded once; rollbacks found by the skins they touched; filters by part of a name."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import typing
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
import redis.asyncio

from gateway.accounts.audit import Action, AuditEntry, Query, StreamTrail
from gateway.accounts.carry_over import carry_over
from gateway.accounts.chain import linked
from gateway.accounts.trail_file import FileTrail
from gateway.runtime.lifecycle import Lifecycle
from gateway.store import keys
from tests.support.cluster import RedisServer

pytestmark = pytest.mark.anyio


def entry(who: str = "otto", action: str = "purge", skin: str | None = "aurora") -> AuditEntry:
    return AuditEntry(action, who, "console", "10.0.0.1", "ok", skin=skin)  # type: ignore[arg-type]


@pytest.fixture
async def clients(redis_server: RedisServer) -> AsyncIterator[list[redis.asyncio.Redis]]:
    with redis_server.client() as client:
        client.delete(keys.AUDIT, keys.AUDIT_HEAD)
        for key in client.scan_iter("bff:audit:once:*"):
            client.delete(key)
    made = [redis.asyncio.Redis(port=redis_server.port) for _ in range(3)]
    yield made
    for client in made:
        await client.aclose()


def stream(client: redis.asyncio.Redis, **kw: object) -> StreamTrail:
    return StreamTrail(client, Lifecycle().spawn, **kw)  # type: ignore[arg-type]


async def written(trail: FileTrail, n: int = 6) -> list[bytes]:
    for k in range(n):
        await trail.record(entry(f"op{k}"))
    return trail.path.read_bytes().splitlines()


async def test_a_file_trail_is_verified_up_to_its_newest_entry(tmp_path: Path) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    lines = await written(trail)
    verdict = await FileTrail(trail.path).verify()  # another process: no head of its own
    assert verdict.intact and verdict.checked == 6 and not verdict.trimmed
    assert verdict.last == json.loads(lines[-1])["id"] and verdict.lastAt == json.loads(lines[-1])["at"]


async def test_a_byte_changed_in_the_file_is_reported_at_its_entry(tmp_path: Path) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    lines = await written(trail)
    lines[2] = lines[2].replace(b'"who":"op2"', b'"who":"op9"')
    trail.path.write_bytes(b"\n".join(lines) + b"\n")
    verdict = await trail.verify()
    assert not verdict.intact and verdict.broken is not None
    assert verdict.broken.problem == "altered" and verdict.broken.line == 3
    assert verdict.broken.at == json.loads(lines[2])["id"] and verdict.last == json.loads(lines[1])["id"]


@pytest.mark.parametrize(
    ("index", "problem", "line"), [(3, "unlinked", 4), (0, "unanchored", 1), (5, "truncated", None)]
)
async def test_a_deleted_entry_is_reported(tmp_path: Path, index: int, problem: str, line: int | None) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    lines = await written(trail)
    del lines[index]
    trail.path.write_bytes(b"\n".join(lines) + b"\n")
    verdict = await trail.verify()  # the process that wrote the last one knows it is gone
    assert verdict.broken is not None and (verdict.broken.problem, verdict.broken.line) == (problem, line)


async def test_a_forged_and_a_replayed_entry_are_reported(tmp_path: Path) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    lines = await written(trail)
    original = msgspec.json.decode(lines[2], type=AuditEntry)
    forged = linked(msgspec.structs.replace(original, who="mallory", id="9999999999999-0"), original.prev)
    for extra, problem in ((msgspec.json.encode(forged), "unlinked"), (lines[2], "replayed")):
        trail.path.write_bytes(b"\n".join([*lines, extra]) + b"\n")
        verdict = await FileTrail(trail.path).verify()
        assert verdict.broken is not None and (verdict.broken.problem, verdict.broken.line) == (problem, 7)


async def test_a_line_torn_by_a_crash_is_no_tampering(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    await written(FileTrail(path), 2)
    with path.open("ab") as file:
        file.write(b'{"action":"purge","who":"to')
    await FileTrail(path).record(entry("after"))
    assert (await FileTrail(path).verify()).intact


async def test_three_instances_write_one_chain_to_the_stream(clients: list[redis.asyncio.Redis]) -> None:
    chores = Lifecycle()
    trails = [StreamTrail(client, chores.spawn) for client in clients]
    started = time.perf_counter()
    await asyncio.gather(*(trail.record(entry(f"i{n}-{k}")) for k in range(100) for n, trail in enumerate(trails)))
    per_entry_us = (time.perf_counter() - started) / 300 * 1e6
    # On a loaded machine an append can lose the head 20 times in a row: a chore appends it soon after.
    await chores.settle(within_s=30)
    verdict = await trails[0].verify()
    assert verdict.intact and verdict.checked == 300, verdict
    print(f"chained XADD, 3 instances racing: {per_entry_us:.0f} us per entry")


async def test_the_streams_bound_is_no_tampering(clients: list[redis.asyncio.Redis]) -> None:
    trail = stream(clients[0], max_entries=100)
    for k in range(1000):
        await trail.record(entry(f"op{k}"))
    verdict = await stream(clients[1]).verify()
    assert verdict.intact and verdict.trimmed and verdict.checked < 1000, "the oldest kept entry anchors the chain"


async def test_entries_deleted_or_forged_in_the_stream_are_reported(clients: list[redis.asyncio.Redis]) -> None:
    trail = stream(clients[0])
    for k in range(5):
        await trail.record(entry(f"op{k}"))
    kept = await clients[1].xrange(keys.AUDIT)
    forged = linked(entry("mallory"), None)
    await clients[1].xadd(keys.AUDIT, {"e": msgspec.json.encode(forged)})
    verdict = await trail.verify()
    assert verdict.broken is not None and verdict.broken.problem == "unlinked" and verdict.last == kept[-1][0].decode()
    await clients[1].xdel(keys.AUDIT, kept[2][0])
    verdict = await trail.verify()
    assert verdict.broken is not None and verdict.broken.problem == "deleted"


async def test_the_newest_entries_deleted_from_the_stream_are_reported(clients: list[redis.asyncio.Redis]) -> None:
    trail = stream(clients[0])
    for k in range(3):
        await trail.record(entry(f"op{k}"))
    kept = await clients[1].xrange(keys.AUDIT)
    await clients[1].delete(keys.AUDIT)  # made again without its newest entry: no XDEL to see
    for raw_id, fields in kept[:-1]:
        await clients[1].xadd(keys.AUDIT, fields, id=raw_id)
    verdict = await trail.verify()
    assert verdict.broken is not None and verdict.broken.problem == "truncated"
    assert verdict.broken.at == kept[-2][0].decode()


async def test_the_file_trail_is_carried_into_redis_once(tmp_path: Path, clients: list[redis.asyncio.Redis]) -> None:
    path = tmp_path / "audit.jsonl"
    lines = await written(FileTrail(path), 4)
    trails = [stream(client, carry=lambda client=client: carry_over(client, path)) for client in clients]
    await asyncio.gather(*(trail.record(entry(f"after-{n}")) for n, trail in enumerate(trails)))
    found, _ = await trails[0].page(Query(limit=50))
    names = [e.who for e in reversed(found)]
    assert names[:4] == ["op0", "op1", "op2", "op3"] and names.count("(gateway)") == 1
    assert sorted(names[4:]) == ["(gateway)", "after-0", "after-1", "after-2"]
    assert [e.id for e in reversed(found)][:4] == [json.loads(line)["id"] for line in lines], "their own ids"
    assert (await trails[1].verify()).intact


async def test_a_broken_file_trail_is_not_carried(tmp_path: Path, clients: list[redis.asyncio.Redis]) -> None:
    path = tmp_path / "audit.jsonl"
    lines = await written(FileTrail(path), 3)
    path.write_bytes(b"\n".join([lines[0], lines[2]]) + b"\n")
    assert await carry_over(clients[0], path) is None and await clients[0].exists(keys.AUDIT) == 0


async def test_one_event_seen_by_two_instances_is_recorded_once(clients: list[redis.asyncio.Redis]) -> None:
    first, second = stream(clients[0]), stream(clients[1])
    rejected = AuditEntry("operators-file-rejected", "(file)", "file", None, "failed", detail="line 3: bad role")
    await asyncio.gather(first.record_once(rejected, "digest-a"), second.record_once(rejected, "digest-a"))
    await second.record_once(rejected, "digest-b")  # another file's content
    found, _ = await first.page(Query())
    assert [e.action for e in found] == ["operators-file-rejected"] * 2


async def test_a_rollback_is_found_by_the_skins_it_touched_and_names_by_a_part(tmp_path: Path) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    changes = [{"skin": "pampa", "upstream": "capi"}, {"skin": "aurora", "upstream": "api"}]
    await trail.record(AuditEntry("rollback", "Otto.Ops", "console", None, "ok", detail={"changes": changes}))
    await trail.record(entry("vera", skin=None))
    (rollback,), _ = await trail.page(Query(skin="PAMP"))
    assert rollback.action == "rollback" and rollback.skin == "aurora, pampa"
    assert [e.who for e in (await trail.page(Query(who="otto")))[0]] == ["Otto.Ops"]


def test_every_action_is_offered_and_named_in_every_language_of_the_console() -> None:
    """Adding an action to `Action` is one line there; this says what else the console needs."""
    console = Path(__file__).resolve().parents[4] / "spa" / "src" / "console"
    actions = set(typing.get_args(Action))
    offered = (console / "features" / "audit" / "auditQuery.ts").read_text()
    typed = (console / "api" / "types.ts").read_text() + (console / "api" / "types.gen.ts").read_text()
    for action in actions:
        assert f'"{action}"' in offered and f'| "{action}"' in typed, f"{action}: in ALL_ACTIONS and AuditAction"
    for language in ("es", "pt", "en"):
        named = json.loads((console / "locales" / language / "audit.json").read_text())["actions"]
        assert actions <= set(named), f"{language}: no label for {sorted(actions - set(named))}"


def test_the_cli_says_in_one_line_where_the_trail_was_altered(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    lines = asyncio.run(written(FileTrail(path), 3))
    run = [sys.executable, "-m", "gateway", "audit", "verify", "--file", str(path)]
    intact = subprocess.run(run, capture_output=True, text=True, timeout=60, check=False)
    assert intact.returncode == 0 and intact.stdout.startswith("trail verified up to "), intact.stderr
    path.write_bytes(b"\n".join([lines[0], lines[2]]) + b"\n")
    broken = subprocess.run(run, capture_output=True, text=True, timeout=60, check=False)
    third = json.loads(lines[2])["id"]
    assert (broken.returncode, broken.stdout.strip()) == (
        1,
        f"trail altered at {third}, line 2: unlinked: it does not follow the entry before it"
        " (one deleted, or this one inserted)",
    )
