"""`/bff/events` on two gateway instances sharing one real Redis, with a 1 s interval: one
platform poll per player whatever the tabs and instances; a session's end reaching every
instance; the instance holding a player's poller killed with -9; Redis killed and restarted;
and nothing of a player's feed left in Redis once their last tab went."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.cluster import ADMIN_TOKEN, Cluster
from tests.support.events import EventReader
from tests.support.fixtures import cluster_fixture, upstream_calls

pytestmark = pytest.mark.redis

INTERVAL_S = 1.0
ENV = {"EVENTS_INTERVAL_S": str(INTERVAL_S), "EVENTS_HEARTBEAT_S": "0.5", "EVENTS_CONNECTS_PER_MINUTE": "1000"}
Answer = httpx.Response
DEPOSIT = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}


cluster = cluster_fixture("events", instances=2, env=ENV, never=["ASGI callable returned without completing response"])


@pytest.fixture
def control(cluster: Cluster) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=cluster.sandbox.url) as client:
        client.post("/_sandbox/reset").raise_for_status()
        client.put("/_sandbox/config", json={"depositApprovalDelayS": 0.2})
        yield client


class Player:
    """One browser of a player: its cookies are good on every instance (one Redis, one secret)."""

    def __init__(self, cluster: Cluster, control: httpx.Client, login: str) -> None:
        control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "500"})
        self.urls = [g.url for g in cluster.gateways]
        self.http = httpx.Client(timeout=10)
        self.login = login
        self.log_in()

    def log_in(self) -> None:
        self.http.get(self.urls[0] + "/bff/session")
        answer = self.post(0, "/api/player/login", {"login": self.login, "password": "pw-123456"})
        assert answer.json()["success"] is True, answer.text

    def post(self, instance: int, path: str, body: object = None, headers: dict[str, str] | None = None) -> Answer:
        xsrf = {"X-XSRF-TOKEN": self.http.cookies.get("XSRF-TOKEN") or "", **(headers or {})}
        return self.http.post(self.urls[instance] + path, json={} if body is None else body, headers=xsrf)

    def stream(self, instance: int) -> EventReader:
        return EventReader(self.urls[instance], self.http.cookies)


def feed_keys(cluster: Cluster, login: str) -> list[bytes]:
    """The player's lease and newest balance, and whether an instance still listens for them."""
    with cluster.redis.client() as client:
        found = sorted(client.scan_iter(match=f"bff:aurora:events:{login}*"))
        listeners = client.pubsub_numsub(f"bff:aurora:events:{login}")[0][1]
        return [*found, *([b"(a subscriber)"] if listeners else [])]


def lease_of(cluster: Cluster, login: str) -> bytes | None:
    with cluster.redis.client() as client:
        found: bytes | None = client.get(f"bff:aurora:events:{login}:lease")
        return found


def wait_for(check: object, within_s: float, what: str) -> float:
    started = time.monotonic()
    while not check():  # type: ignore[operator]
        assert time.monotonic() - started < within_s, f"{what} not within {within_s} s"
        time.sleep(0.05)
    return time.monotonic() - started


def test_three_tabs_on_two_instances_cost_one_poll_an_interval_and_see_a_deposit_at_once(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = Player(cluster, control, "evtabs")
    with player.stream(0) as one, player.stream(0) as two, player.stream(1) as three:
        for tab in (one, two, three):
            assert float(tab.next("balance").json()["values"][0]["cash"]["value"]) == 500
        time.sleep(0.5)
        before = upstream_calls(control, "balance")
        time.sleep(6 * INTERVAL_S)
        polls = upstream_calls(control, "balance") - before
        assert 4 <= polls <= 7, f"{polls} platform balance calls in 6 intervals for three tabs"
        answer = player.post(1, "/api/cashier/buy", DEPOSIT, {"Idempotency-Key": "evtabs-deposit-1"})
        assert answer.json()["success"] is True
        sent = time.monotonic()
        for tab in (one, two, three):
            assert float(tab.next("balance", within_s=2).json()["values"][0]["cash"]["value"]) == 1500
        assert time.monotonic() - sent < 1.0
        assert len(feed_keys(cluster, "evtabs")) == 3
    wait_for(lambda: not feed_keys(cluster, "evtabs"), 2.0, "the feed's keys gone with the last tab")


def test_logout_on_one_instance_ends_the_streams_on_both(cluster: Cluster, control: httpx.Client) -> None:
    player = Player(cluster, control, "evlogout")
    with player.stream(0) as here, player.stream(1) as there:
        here.next("balance")
        there.next("balance")
        assert player.post(0, "/api/player/logout").status_code == 200
        for tab in (here, there):
            assert tab.next("end", within_s=1).json() == {"reason": "logout"}
            assert tab.closed.wait(1)


def test_an_operators_revocation_ends_the_players_streams_everywhere(cluster: Cluster, control: httpx.Client) -> None:
    player = Player(cluster, control, "evrevoke")
    with player.stream(0) as here, player.stream(1) as there:
        here.next("balance")
        there.next("balance")
        revoked = httpx.post(
            cluster.admin_urls[1] + "/admin/api/skins/aurora/players/evrevoke/revoke",
            headers={"authorization": f"Bearer {ADMIN_TOKEN}"},
            json={"reason": "account under review"},
        )
        assert revoked.status_code == 200, revoked.text
        for tab in (here, there):
            assert tab.next("end", within_s=1).json() == {"reason": "revoked"}


def test_the_poller_killed_with_sigkill_moves_to_the_other_instance_within_an_interval(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = Player(cluster, control, "evkill")
    try:
        with player.stream(0) as first:
            first.next("balance")
            wait_for(lambda: lease_of(cluster, "evkill") is not None, 2, "the lease taken")
            holder = lease_of(cluster, "evkill")
            with player.stream(1) as second:
                second.next("balance")
                time.sleep(2 * INTERVAL_S)
                assert lease_of(cluster, "evkill") == holder, "the first instance kept polling"
                before = upstream_calls(control, "balance")
                cluster.gateways[0].kill()
                killed = time.monotonic()
                took = wait_for(lambda: lease_of(cluster, "evkill") not in (None, holder), INTERVAL_S, "takeover")
                wait_for(
                    lambda: upstream_calls(control, "balance") > before,
                    INTERVAL_S * 1.2 - took,
                    "a poll from the new holder",
                )
                assert time.monotonic() - killed <= INTERVAL_S * 1.2
                second.next("comment")  # the tab on the living instance streams on
    finally:
        cluster.revive(0)


def test_redis_killed_closes_the_streams_refuses_new_ones_with_503_and_they_resume_after(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = Player(cluster, control, "evredis")
    with player.stream(0) as here, player.stream(1) as there:
        here.next("balance")
        there.next("balance")
        cluster.redis.kill()
        try:
            for tab in (here, there):
                assert tab.closed.wait(3), "the stream closed: its tab goes back to polling"
            with player.stream(0) as refused:
                assert refused.status == 503, refused.body
            polled = player.post(1, "/api/cashier/balance")
            assert polled.status_code != 500
        finally:
            cluster.redis.start()
    wait_for(lambda: all(httpx.get(g.url + "/bff/ready").status_code == 200 for g in cluster.gateways), 15, "ready")
    player.log_in()  # the restarted Redis kept no sessions
    with player.stream(1) as resumed:
        assert resumed.status == 200
        assert float(resumed.next("balance").json()["values"][0]["cash"]["value"]) == 500
