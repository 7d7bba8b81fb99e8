"""The allowed upstream hosts on two gateway instances sharing one Redis: the environment's
(`BFF_ALLOWED_HOSTS`) and the skins file's lists each let their hosts through on either instance,
and a change to any other host is refused with a field error, changes nothing anywhere and is in
the shared trail as refused (docs/allowed-hosts.md)."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.support.cluster import ADMIN_TOKEN, Cluster, extra_skin, given_redis
from tests.support.fixtures import cluster_fixture

pytestmark = pytest.mark.redis

TALLY = extra_skin("tally", "Tally", 'allowed_hosts = ["*.tally.test"]')
"""A second skin whose own list (in the skins file) allows `*.tally.test`."""
ENV = "aurora=localhost;*=*.shared.test"
"""aurora may also point at localhost (the sandbox under another name), every skin at *.shared.test."""
UNPROBED = {"probe": False, "override": {"reason": "made-up hosts: the list is what this test is about"}}


cluster = cluster_fixture(
    "allowed-hosts",
    instances=2,
    env={"BFF_ALLOWED_HOSTS": ENV},
    extra_skins=TALLY,
    redis=given_redis,
    never=[ADMIN_TOKEN],
)


def call(cluster: Cluster, instance: int, method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    return httpx.request(method, cluster.admin_urls[instance] + path, json=body, headers=headers, timeout=20)


def put(cluster: Cluster, instance: int, skin: str, upstream: str, body: dict[str, Any]) -> httpx.Response:
    return call(cluster, instance, "PUT", f"/admin/skins/{skin}/upstreams/{upstream}", body)


def upstream_urls(cluster: Cluster, instance: int) -> dict[str, str]:
    skins = call(cluster, instance, "GET", "/admin/api/overview").json()["skins"]
    return {f"{s['id']}.{u['name']}": u["url"] for s in skins for u in s["upstreams"]}


def settled(cluster: Cluster) -> tuple[str, dict[str, str]]:
    """The version both instances run and their upstreams (they follow each other within a second)."""
    deadline = time.monotonic() + 5
    while True:
        seen = [
            (call(cluster, n, "GET", "/admin/api/instances").json()["current"], upstream_urls(cluster, n))
            for n in (0, 1)
        ]
        if seen[0] == seen[1]:
            return seen[0]
        assert time.monotonic() < deadline, f"instances disagree: {seen}"
        time.sleep(0.1)


def refused_changes(cluster: Cluster, instance: int) -> list[tuple[str | None, str | None, str]]:
    entries = call(cluster, instance, "GET", "/admin/api/audit?action=change").json()["entries"]
    return [(e["skin"], e["target"], e["detail"]["errors"][0]["code"]) for e in entries if e["outcome"] == "refused"]


def status_problem(cluster: Cluster, instance: int, kind: str) -> dict[str, Any]:
    """The console's status line's first problem of `kind` on `instance`, once a round saw it."""
    deadline = time.monotonic() + 15
    while True:
        line = call(cluster, instance, "GET", "/admin/api/status").json()
        found = [p for p in line["problems"] if p["kind"] == kind]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"the status line never said it: {line}"
        time.sleep(0.2)


def codes(answer: httpx.Response) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in answer.json()["errors"]]


def test_a_change_outside_the_lists_is_refused_on_either_instance_and_changes_nothing(cluster: Cluster) -> None:
    version, urls = settled(cluster)
    evil = put(cluster, 0, "aurora", "api", {"url": "http://wallet.evil.test"})
    assert evil.status_code == 422 and codes(evil) == [("url", "URL_HOST_NOT_ALLOWED")]
    other_skins = put(cluster, 1, "tally", "api", {"url": cluster.sandbox.url.replace("127.0.0.1", "localhost")})
    assert other_skins.status_code == 422, "localhost is aurora's (the environment's), not tally's"
    masked = put(cluster, 1, "aurora", "capi", {"url": "http://2130706433:" + cluster.sandbox.url.rpartition(":")[2]})
    assert codes(masked) == [("url", "URL_HOST_FORM")], "127.0.0.1 written as a number is not read as it"
    assert settled(cluster) == (version, urls), "no instance changed"
    assert refused_changes(cluster, 1)[:3] == [
        ("aurora", "capi", "URL_HOST_FORM"),
        ("tally", "api", "URL_HOST_NOT_ALLOWED"),
        ("aurora", "api", "URL_HOST_NOT_ALLOWED"),
    ], "each is in the shared trail, whichever instance refused it"


def test_the_environments_and_the_files_hosts_are_let_through_on_every_instance(cluster: Cluster) -> None:
    moved = cluster.sandbox.url.replace("127.0.0.1", "localhost")
    answer = put(cluster, 0, "aurora", "capi", {"url": moved, "override": {"reason": "the same sandbox"}})
    assert answer.status_code == 200, answer.text
    for skin, upstream, url in [("tally", "api", "http://w1.tally.test"), ("tally", "rest", "http://r.shared.test")]:
        answer = put(cluster, 1, skin, upstream, {"url": url, **UNPROBED})
        assert answer.status_code == 200, answer.text
    _, urls = settled(cluster)
    assert (urls["aurora.capi"], urls["tally.api"], urls["tally.rest"]) == (
        moved,
        "http://w1.tally.test",
        "http://r.shared.test",
    )
    skins = call(cluster, 1, "GET", "/admin/api/overview").json()["skins"]
    shown = next(s["allowedHosts"] for s in skins if s["id"] == "tally")
    assert shown == [cluster.sandbox.url.removeprefix("http://"), "*.shared.test", "*.tally.test"]


def test_an_instance_started_with_a_narrower_list_leaves_a_kept_override_unapplied(cluster: Cluster) -> None:
    """After the test before: tally's rest points at r.shared.test, kept in Redis. A deploy takes
    *.shared.test off the list and restarts instance 1 first."""
    gateway = cluster.gateways[1]
    gateway.stop()
    gateway.env = {**gateway.env, "BFF_ALLOWED_HOSTS": "aurora=localhost"}
    gateway.start("/bff/health")
    assert upstream_urls(cluster, 1)["tally.rest"] == cluster.sandbox.url, "the file's value, not the kept one"
    assert upstream_urls(cluster, 0)["tally.rest"] == "http://r.shared.test", "the instance not restarted keeps it"
    error = "tally.rest=http://r.shared.test is not applied: its host is not allowed for tally"
    assert call(cluster, 1, "GET", "/admin/status").json()["config"]["error"] == error
    problem = status_problem(cluster, 1, "config")
    assert (problem["level"], problem["detail"]) == ("degraded", error)
    assert "config.override_not_applied" in gateway.log.read_text()
