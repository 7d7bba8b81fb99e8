"""A canary through a Redis outage, on two instances with a Redis of their own: Redis frozen
(SIGSTOP) mid-step for longer than the controller's lease. Nothing is judged and no step moves
while it is away, the outage's time does not end the step, the players keep the platform they
signed in on, and once it is back the canary goes on from where it was: each step moves once, it
is promoted once, no deposit is split."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.integration.test_canary_cluster import (
    PASSWORD,
    PLAYERS,
    Site,
    Traffic,
    canary_of,
    moves,
    operator,
    start,
    until,
)
from tests.support.cluster import another_sandbox, start_cluster
from tests.support.console import write_operators

pytestmark = pytest.mark.redis

FROZEN_S = 6.0
"""Longer than the controller's lease (4 s): whoever held it may have lost it when Redis wakes."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp("canary-faults")
    env = {"OPERATORS_FILE": str(write_operators(workdir / "operators.toml"))}
    cluster = start_cluster(workdir, instances=2, env=env)  # its own Redis: this test freezes it
    try:
        new = another_sandbox(workdir)
    except BaseException:
        cluster.stop()
        raise
    try:
        for platform in (cluster.sandbox, new):
            for n in range(PLAYERS):
                body = {"login": f"cc{n}", "password": PASSWORD, "cash": "100000"}
                httpx.post(f"{platform.url}/_sandbox/sites/aurora/players", json=body).raise_for_status()
        yield Site(cluster, new, live=[0, 1])
    finally:
        new.stop()
        cluster.stop()


def test_redis_frozen_mid_step_stops_the_judging_not_the_canary_and_nothing_moves_twice(site: Site) -> None:
    ops = operator(site)
    redis = site.cluster.redis
    assert redis is not None and redis.process is not None
    with Traffic(site, first=0) as traffic:
        canary = start(ops, site, [(0.5, 18), (1.0, 3)], "a canary through a Redis outage")
        until(lambda: canary_of(ops, canary["id"]), lambda c: len(c["verdicts"]) >= 2, "two checks", 30)
        frozen = time.time()
        redis.process.send_signal(signal.SIGSTOP)
        try:
            time.sleep(FROZEN_S)
        finally:
            redis.process.send_signal(signal.SIGCONT)
            woke = time.time()
        answers = []
        read = lambda: answers.append(ops.get(f"/admin/api/canaries/{canary['id']}")) or answers[-1]  # noqa: E731
        during = until(read, lambda a: a.status_code == 200, "the console answering again", 15).json()["canary"]
        print("while Redis woke:", sorted({(a.status_code, a.json().get("code")) for a in answers[:-1]}))
        assert (during["state"], during["step"]) == ("running", 0), "the outage's time did not end the step"
        ended = until(lambda: canary_of(ops, canary["id"]), lambda c: c["state"] != "running", "an end", 90)
        time.sleep(1)  # deposits under way at the promotion land where they started
    assert ended["state"] == "promoted", (ended["endedReason"], [v["reasons"] for v in ended["verdicts"]])
    assert [e["detail"]["step"] for e in moves(ops, "canary-step", canary["id"])] == [2], "the step moved once"
    assert len(moves(ops, "canary-promote", canary["id"])) == 1
    judged = [v["at"] for v in ended["verdicts"]]
    assert judged == sorted(judged) and len(set(judged)) == len(judged), "no check judged twice"
    assert not [at for at in judged if frozen + 0.5 < at < woke], "nothing was judged while Redis was away"
    assert traffic.split_players() == [], "a player's deposits split across platforms"
    took = ended["ended"] - ended["started"]
    print(f"promoted {took:.1f} s after the start, through {FROZEN_S:.0f} s of frozen Redis")
