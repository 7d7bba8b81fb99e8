"""The trail on three gateway processes sharing one Redis: the file mode's trail carried over once,
chain intact; 300 wrong bearer tokens from one address limited cluster-wide and recorded once;
one rejected operators file recorded once however many instances read it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.accounts.audit import AuditEntry
from gateway.accounts.trail_file import FileTrail
from tests.support.cluster import ADMIN_TOKEN, Cluster, bound_client
from tests.support.console import write_operators
from tests.support.fixtures import cluster_running

ADMIN = {"authorization": f"Bearer {ADMIN_TOKEN}"}


def _file_trail(path: Path) -> list[str]:
    """What a gateway in file mode wrote before Redis came: their ids."""

    async def write() -> None:
        trail = FileTrail(path)
        for n in range(5):
            await trail.record(AuditEntry("purge", f"filed-{n}", "console", "10.0.0.1", "ok", skin="aurora"))

    asyncio.run(write())
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, Path, list[str]]]:
    workdir = tmp_path_factory.mktemp("audit-cluster")
    audit_file, operators = workdir / "audit.jsonl", write_operators(workdir / "operators.toml")
    filed = _file_trail(audit_file)
    env = {"AUDIT_FILE": str(audit_file), "OPERATORS_FILE": str(operators), "SKINS_POLL_S": "0.2"}
    with cluster_running(workdir, instances=3, env=env, never=[ADMIN_TOKEN]) as running:
        yield running, operators, filed


def trail(cluster: Cluster, instance: int, **params: str) -> list[dict[str, Any]]:
    answer = httpx.get(cluster.admin_urls[instance] + "/admin/api/audit", params=params, headers=ADMIN, timeout=10)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["entries"])


def verified(cluster: Cluster, instance: int) -> dict[str, Any]:
    answer = httpx.get(cluster.admin_urls[instance] + "/admin/api/audit/verify", headers=ADMIN, timeout=30)
    return dict(answer.json())


def test_the_file_trail_is_carried_into_redis_once(cluster: tuple[Cluster, Path, list[str]]) -> None:
    running, _, filed = cluster
    with ThreadPoolExecutor(3) as pool:  # each instance's first look at the trail, at once
        seen = list(pool.map(lambda n: trail(running, n, limit="500"), range(3)))
    newest = trail(running, 0, limit="500")
    carried = [e["id"] for e in newest if e["who"].startswith("filed-")]
    assert sorted(carried) == sorted(filed) and all(len(s) >= 5 for s in seen), "once, under their own ids"
    assert [e["who"] for e in newest].count("(gateway)") == 1, "one instance carried it"
    assert all(verified(running, n)["intact"] for n in range(3))


def test_wrong_tokens_from_one_address_over_three_instances_are_limited_and_recorded_once(
    cluster: tuple[Cluster, Path, list[str]],
) -> None:
    running, _, _ = cluster
    clients = [bound_client(url, "127.0.0.77") for url in running.admin_urls]

    def guess(n: int) -> int:
        wrong = {"authorization": f"Bearer wrong-token-{n:04d}-abcdefghijklmnop"}
        return clients[n % 3].get("/admin/status", headers=wrong).status_code

    with ThreadPoolExecutor(30) as pool:
        codes = list(pool.map(guess, range(300)))
    for client in clients:
        client.close()
    assert codes.count(401) <= 20 and codes.count(429) == 300 - codes.count(401), "the limit is the cluster's"
    limited = trail(running, 1, action="token-limited")
    refused = [e for e in trail(running, 2, action="refused") if e["address"] == "127.0.0.77"]
    assert len(limited) == 1 and len(refused) == 1, (limited, refused)
    assert limited[0]["detail"]["code"] == "TOKEN_LIMITED" and refused[0]["detail"]["code"] == "SIGNED_OUT"
    kept = json.dumps(trail(running, 0, limit="500"))
    assert "wrong-token" not in kept and "abcdefghijklmnop" not in kept, "never the token, nor a part of it"
    logs = "".join(gateway.log.read_text() for gateway in running.gateways)
    assert logs.count('"event":"console.refused"') == 300 and "wrong-token" not in logs
    assert verified(running, 0)["intact"]


def test_one_rejected_operators_file_on_three_instances_is_recorded_once(
    cluster: tuple[Cluster, Path, list[str]],
) -> None:
    running, operators, _ = cluster
    operators.write_text("[[operators]]\nname = 'eve'\nrole = 'emperor'\n")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        logs = [gateway.log.read_text() for gateway in running.gateways]
        if all('"event":"operators.rejected"' in log for log in logs):
            break
        time.sleep(0.2)
    time.sleep(0.5)
    rejected = trail(running, 0, action="operators-file-rejected")
    assert len(rejected) == 1, rejected
    write_operators(operators)
