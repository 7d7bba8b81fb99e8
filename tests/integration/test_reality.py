"""The session's clock and its reality check on two gateway instances sharing one Redis: the same
sign-in, the same check due, and one answer, whichever instance a tab reaches; the answer is heard
on the other instance's balance stream."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import Cluster, extra_skin
from tests.support.events import EventReader
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis

HOST = "checked.localhost"
SKIN = extra_skin("checked", "Checked", "features = { reality_check_minutes = 0.25 }")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with cluster_running(tmp_path_factory.mktemp("reality"), instances=2, extra_skins=SKIN) as running:
        yield running


def test_the_clock_and_the_answer_are_the_sessions_on_every_instance(cluster: Cluster) -> None:
    with httpx.Client(base_url=cluster.sandbox.url) as control:
        control.post("/_sandbox/reset").raise_for_status()
        control.post("/_sandbox/sites/aurora/players", json={"login": "clock1", "password": "secret123", "cash": "500"})
    player = Browser(*(gateway.url for gateway in cluster.gateways), host=HOST)
    player.login("clock1", "secret123")
    first, second = (player.get("/bff/session", on=n).json() for n in (0, 1))
    assert first["signedInAt"] == second["signedInAt"] is not None
    assert abs(first["now"] - second["now"]) < 1000
    assert player.post("/api/cashier/balance", on=1).status_code == 200  # the session's opening balance
    assert player.get("/bff/reality", on=1).json()["check"] is None

    headers = {"host": f"{HOST}:{httpx.URL(cluster.gateways[1].url).port}"}
    with EventReader(cluster.gateways[1].url, player.http.cookies, headers) as stream:
        time.sleep(max(0.0, first["signedInAt"] / 1000 + 15.2 - time.time()))
        on_first, on_second = (player.get("/bff/reality", on=n).json() for n in (0, 1))
        assert on_first["check"]["number"] == on_second["check"]["number"] == 1
        assert on_first["check"]["dueAt"] == on_second["check"]["dueAt"] == first["signedInAt"] + 15_000
        assert on_second["check"]["balanceChange"] == 0

        answered = player.post("/bff/reality/answer", on=0)
        assert answered.status_code == 200
        assert answered.json()["answered"] == 1
        assert stream.next("reality").json() == {"answered": 1}
    assert player.get("/bff/reality", on=1).json()["check"] is None
    player.close()
