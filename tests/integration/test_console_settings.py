"""A skin's reality check changed through one of two gateway instances sharing one Redis: the
other takes the new period up, and a player's session there gets its next check on it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import ADMIN_TOKEN, Cluster, extra_skin
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis

HOST = "checked.localhost"
SKIN = extra_skin("checked", "Checked")
"""A skin with no reality check in the file."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with cluster_running(tmp_path_factory.mktemp("settings"), instances=2, extra_skins=SKIN) as running:
        yield running


def admin(cluster: Cluster, instance: int, method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    return httpx.request(method, cluster.admin_urls[instance] + path, json=body, headers=headers, timeout=20)


def period_on(cluster: Cluster, instance: int) -> float | None:
    skins = admin(cluster, instance, "GET", "/admin/api/overview").json()["skins"]
    return next(s["realityCheckMinutes"] for s in skins if s["id"] == "checked")


def test_a_period_set_on_one_instance_is_the_next_checks_on_the_other(cluster: Cluster) -> None:
    with httpx.Client(base_url=cluster.sandbox.url) as control:
        control.post("/_sandbox/reset").raise_for_status()
        control.post("/_sandbox/sites/aurora/players", json={"login": "period1", "password": "secret123", "cash": "50"})
    player = Browser(*(gateway.url for gateway in cluster.gateways), host=HOST)
    player.login("period1", "secret123")
    before = player.get("/bff/reality", on=1).json()
    assert before["everySeconds"] is None and before["check"] is None
    assert period_on(cluster, 1) is None

    base = admin(cluster, 0, "GET", "/admin/api/overview").json()["config"]["version"]
    body = {"skin": "checked", "setting": "reality_check_minutes", "value": 0.25, "baseVersion": base}
    made = admin(cluster, 0, "POST", "/admin/api/settings", {**body, "reason": "checks for the pilot"})
    assert made.status_code == 200, made.text
    assert made.json()["live"]["acknowledged"] == made.json()["live"]["total"] == 2
    assert period_on(cluster, 1) == 0.25

    seen = player.get("/bff/reality", on=1).json()
    assert seen["everySeconds"] == 15, "the other instance's next check follows the new period"
    time.sleep(max(0.0, seen["signedInAt"] / 1000 + 15.2 - time.time()))
    due = player.get("/bff/reality", on=1).json()["check"]
    assert due["number"] == 1 and due["dueAt"] == seen["signedInAt"] + 15_000
    trail = admin(cluster, 1, "GET", "/admin/api/audit?action=change").json()["entries"]
    entry = next(e for e in trail if e["skin"] == "checked")
    assert (entry["target"], entry["before"], entry["after"], entry["outcome"]) == (
        "features.reality_check_minutes",
        "off",
        "0.25",
        "ok",
    )
    player.close()
