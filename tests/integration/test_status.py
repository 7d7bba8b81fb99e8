"""Two gateway instances sharing one Redis, as an operator sees them through the status line's
API and the event timeline: the platform stopped is on the status line and in the timeline
within 10 s, once however many instances saw it, and its "back" entry keeps when it went down;
an instance frozen with SIGSTOP is stale within 10 s and serving again after SIGCONT."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from gateway.monitoring.instances import BEAT_S
from tests.support.cluster import ADMIN_TOKEN, Cluster
from tests.support.fixtures import cluster_fixture

pytestmark = pytest.mark.redis

WITHIN_S = 10.0
BEARER = {"authorization": f"Bearer {ADMIN_TOKEN}"}


cluster = cluster_fixture("status", instances=2)


def admin(cluster: Cluster, path: str, on: int = 0, **params: Any) -> Any:
    answer = httpx.get(cluster.admin_urls[on] + path, headers=BEARER, params=params, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()


def within(check: Callable[[], Any], what: str, seconds: float = WITHIN_S) -> tuple[Any, float]:
    """`check`'s first true answer and how long it took, or fails after `seconds`."""
    started = time.monotonic()
    while not (found := check()):
        assert time.monotonic() - started < seconds, f"{what} not within {seconds:g} s"
        time.sleep(0.25)
    return found, time.monotonic() - started


def events(cluster: Cluster, kind: str, on: int = 0, **params: Any) -> list[dict[str, Any]]:
    return [e for e in admin(cluster, "/admin/api/events", on, **params)["entries"] if e["kind"] == kind]


def test_the_platform_stopped_is_on_the_status_line_and_in_the_timeline_once_with_down_at_back_at(
    cluster: Cluster,
) -> None:
    within(lambda: admin(cluster, "/admin/api/status")["level"] == "ok", "every skin healthy")
    cluster.sandbox.kill()
    try:

        def down() -> list[dict[str, Any]]:
            problems = admin(cluster, "/admin/api/status", on=1)["problems"]
            return [p for p in problems if (p["kind"], p["skin"], p["upstream"]) == ("upstream", "aurora", "capi")]

        problems, took = within(down, "aurora's capi down on the status line")
        print(f"status line says aurora capi down {took:.1f} s after the platform stopped")
        assert problems[0]["level"] == "down" and problems[0]["since"]
        within(lambda: events(cluster, "upstream.down", skin="aurora"), "the timeline's entry")
        time.sleep(2 * BEAT_S)  # both instances have seen it by now
        downs = events(cluster, "upstream.down", on=1, skin="aurora")
        assert sorted(e["upstream"] for e in downs) == ["api", "capi", "rest", "sbapi"], "each once in the cluster"
    finally:
        cluster.sandbox.start("/_sandbox/health")
    backs, took = within(lambda: events(cluster, "upstream.back", skin="aurora"), "the timeline's back entry")
    print(f"timeline says aurora back {took:.1f} s after the platform restarted")
    capi = next(e for e in downs if e["upstream"] == "capi")
    back = next(e for e in backs if e["upstream"] == "capi")
    assert back["since"] == capi["at"] or back["since"] <= capi["at"], "down at, kept on the back entry"
    assert back["at"] > back["since"]
    within(lambda: admin(cluster, "/admin/api/status")["level"] == "ok", "every skin healthy again")
    assert len(events(cluster, "upstream.back", on=1, skin="aurora")) == 4


def test_an_instance_frozen_with_sigstop_is_stale_within_10_s_and_serving_after_sigcont(cluster: Cluster) -> None:
    frozen = cluster.gateways[1]
    assert frozen.process is not None
    own = admin(cluster, "/admin/api/instances", on=1)["instances"][0]["id"]
    frozen.process.send_signal(signal.SIGSTOP)
    try:

        def stale() -> list[dict[str, Any]]:
            problems = admin(cluster, "/admin/api/status")["problems"]
            return [p for p in problems if p["kind"] == "instance" and p["instance"] == own]

        _, took = within(stale, f"instance {own} stale on the status line")
        print(f"instance stale on the status line {took:.1f} s after SIGSTOP")
        listed = {i["id"]: i for i in admin(cluster, "/admin/api/instances")["instances"]}
        assert listed[own]["state"] == "stale" and listed[own]["lastSeenS"] > 6
    finally:
        frozen.process.send_signal(signal.SIGCONT)
    within(lambda: not stale(), f"instance {own} serving again")
    listed = {i["id"]: i for i in admin(cluster, "/admin/api/instances")["instances"]}
    assert listed[own]["state"] == "serving" and listed[own]["lastSeenS"] < 4
    _, _ = within(lambda: events(cluster, "instance.back"), "the timeline's back entry")
    assert [e["instance"] for e in events(cluster, "instance.stale")] == [own], "once, by the instance that saw it"
    back = events(cluster, "instance.back")[0]
    assert back["instance"] == own and back["since"] < back["at"]


def test_redis_paused_is_on_the_status_line_at_once_and_its_outage_in_the_timeline_once(cluster: Cluster) -> None:
    """Seen from outside: with Redis paused, the header said "Redis store: ok" over old figures."""
    redis = cluster.redis.process
    assert redis is not None
    redis.send_signal(signal.SIGSTOP)
    try:
        store, took = within(
            lambda: (s := admin(cluster, "/admin/api/status")["store"])["status"] == "unavailable" and s,
            "the store unavailable on the status line",
        )
        print(f"store unavailable on the status line {took:.1f} s after Redis paused")
        assert store["since"] and store["answeredAt"] <= store["since"]
        level = admin(cluster, "/admin/api/status", on=1)["level"]
        assert level == "down", "the other instance says so too, from its own beat"
    finally:
        redis.send_signal(signal.SIGCONT)
    within(lambda: admin(cluster, "/admin/api/status")["store"]["status"] == "ok", "the store back")
    backs, _ = within(lambda: events(cluster, "store.back"), "the outage in the timeline")
    time.sleep(2 * BEAT_S)  # the other instance has heard Redis again by now
    backs = events(cluster, "store.back", on=1)
    assert len(backs) == 1, "one entry for the cluster's one outage"
    assert backs[0]["since"] == store["since"] or backs[0]["since"] < backs[0]["at"]


def test_no_entry_can_be_posted_and_bad_filters_are_named(cluster: Cluster) -> None:
    before = admin(cluster, "/admin/api/events")["entries"]
    forged = {"kind": "upstream.back", "at": time.time(), "by": "attacker", "skin": "aurora", "upstream": "capi"}
    for method in ("POST", "PUT", "DELETE"):
        answer = httpx.request(method, cluster.admin_urls[0] + "/admin/api/events", json=forged, headers=BEARER)
        assert answer.status_code == 405, f"{method}: {answer.status_code} {answer.text}"
    assert admin(cluster, "/admin/api/events")["entries"] == before, "nothing written from outside"
    answer = httpx.get(
        cluster.admin_urls[0] + "/admin/api/events",
        params={"since": "yesterday", "until": "2026-12-02T10:00:00", "skin": "Aurora!"},
        headers=BEARER,
    )
    assert answer.status_code == 422, answer.text
    assert {(e["field"], e["code"]) for e in answer.json()["errors"]} == {
        ("since", "TIME_INVALID"),
        ("until", "TIME_INVALID"),  # a time without its zone is ambiguous
        ("skin", "UNKNOWN_SKIN"),
    }
    iso = admin(cluster, "/admin/api/events", since="2026-01-01T00:00:00Z", skin="aurora")
    assert all(e["skin"] == "aurora" for e in iso["entries"])


def test_an_instance_killed_is_gone_not_stale_and_left_in_the_timeline_once(cluster: Cluster) -> None:
    killed = cluster.gateways[1]
    gone = admin(cluster, "/admin/api/instances", on=1)["instances"][0]["id"]
    killed.kill()
    try:
        # Gone from the presence at once; its last beat is dropped once it would be stale (6 s).
        left, took = within(lambda: [e for e in events(cluster, "instance.left") if e["instance"] == gone], "left", 15)
        print(f"a killed instance left in the timeline {took:.1f} s after kill -9")
        ids = [i["id"] for i in admin(cluster, "/admin/api/instances")["instances"]]
        assert gone not in ids, "gone from the instances at once"
        assert not [p for p in admin(cluster, "/admin/api/status")["problems"] if p["kind"] == "instance"], "not stale"
    finally:
        killed.start("/bff/health")
    fresh = admin(cluster, "/admin/api/instances", on=1)["instances"][0]["id"]
    within(lambda: [e for e in events(cluster, "instance.joined") if e["instance"] == fresh], "the new one joined")
    assert len(left) == 1
