"""Session copies across gateway processes on one redis-server: each instance reads a found
session from Redis once, and a session ended on one instance (admin revocation, logout) is
refused on the others within a second; Redis lost and back, no copy is trusted until the
subscription is confirmed again; a copy never outlives its key's TTL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import ADMIN_TOKEN, Cluster, commands_between
from tests.support.fixtures import cluster_fixture, sandbox_url_fixture, upstream_calls

pytestmark = pytest.mark.redis


cluster = cluster_fixture("copies", instances=2, never=None)
sandbox_url = sandbox_url_fixture("cluster")


class Player(Browser):
    """One browser; each call names the instance it lands on."""

    def balance(self, instance: int) -> httpx.Response:
        return self.post("/api/cashier/balance", on=instance)

    def logged_in_on(self, instance: int) -> bool:
        answer = self.balance(instance)
        assert answer.status_code == 200, answer.text
        return bool(answer.json().get("success"))

    @property
    def key(self) -> str:
        return f"bff:sessions:aurora:{self.http.cookies['bff']}"


@pytest.fixture
def player(cluster: Cluster, control: httpx.Client) -> Iterator[Player]:
    p = Player.on(cluster)
    yield p
    p.close()


def seconds_until(check: Callable[[], bool], within_s: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < within_s:
        if check():
            return time.monotonic() - started
        time.sleep(0.02)
    raise AssertionError(f"not within {within_s} s")


def test_a_logged_in_read_costs_no_redis_round_trip_once_the_session_is_copied(
    cluster: Cluster, player: Player
) -> None:
    player.login(on=0)
    # The first balance read since sign-in writes the session once (its opening balance, for the
    # reality check), and the copies take that write: the reads after it cost nothing.
    assert player.logged_in_on(1) and player.logged_in_on(1)
    before = cluster.redis.commands()
    for _ in range(20):
        assert player.logged_in_on(1)
    used = {name: n for name, n in commands_between(before, cluster.redis.commands()).items() if name != "hello"}
    assert used.get("evalsha", 0) + used.get("get", 0) == 0, f"20 reads sent Redis {used}"


def test_a_session_written_on_one_instance_is_seen_on_another_at_once(player: Player) -> None:
    assert not player.logged_in_on(1), "a visitor on instance 1"
    player.login(on=0)
    assert player.logged_in_on(1), "the login on instance 0, seen at once on instance 1"


def test_a_session_revoked_by_admin_on_one_instance_is_refused_on_another_within_a_second(
    cluster: Cluster, player: Player
) -> None:
    player.login(on=0)
    assert player.logged_in_on(1) and player.logged_in_on(1), "instance 1 holds a copy"
    admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    revoked = httpx.post(cluster.admin_urls[0] + "/admin/skins/aurora/players/demo1/revoke", headers=admin)
    assert revoked.status_code == 200 and revoked.json()["sessionsEnded"] >= 1
    assert seconds_until(lambda: not player.logged_in_on(1), within_s=1.0) < 1.0


def test_a_logout_on_one_instance_is_refused_on_another_within_a_second(player: Player, control: httpx.Client) -> None:
    player.login(on=0)
    jar = {"bff": player.http.cookies["bff"], "XSRF-TOKEN": player.http.cookies["XSRF-TOKEN"]}
    assert player.logged_in_on(1) and player.logged_in_on(1), "instance 1 holds a copy"
    assert player.post("/api/player/logout", on=0).status_code == 200
    control.delete("/_sandbox/calls")
    # The same old cookie, replayed (a second tab, or a thief): its session ended everywhere.
    old = httpx.Client(cookies=jar, timeout=30)
    headers = {"X-XSRF-TOKEN": jar["XSRF-TOKEN"]}

    def refused_on_1() -> bool:
        answer = old.post(player.urls[1] + "/api/cashier/balance", json={}, headers=headers)
        return answer.status_code == 200 and answer.json().get("success") is not True

    assert seconds_until(refused_on_1, within_s=1.0) < 1.0
    old.close()
    assert upstream_calls(control, "balance") == 0, "refused by the gateway, not the platform"


def test_a_copy_never_outlives_its_keys_ttl(cluster: Cluster, player: Player) -> None:
    player.login(on=0)
    assert player.logged_in_on(0), "the first balance since sign-in, written once (on instance 0)"
    with cluster.redis.client() as redis:
        redis.pexpire(player.key, 600)  # as if the session were about to end on its own
    assert player.logged_in_on(1), "copied with the TTL left"
    assert seconds_until(lambda: not player.logged_in_on(1), within_s=1.5) < 1.5


def test_copies_are_not_trusted_until_redis_and_the_subscription_are_back(cluster: Cluster, player: Player) -> None:
    player.login(on=0)
    assert player.logged_in_on(1) and player.logged_in_on(1), "instance 1 holds a copy"
    cluster.redis.kill()  # SIGKILL, nothing saved: every session is gone when it returns
    try:
        started = time.monotonic()
        answer = player.balance(1)
        while answer.status_code == 200 and time.monotonic() - started < 1.0:
            answer = player.balance(1)
        assert answer.status_code == 503 and answer.json()["code"] == "STORE_UNAVAILABLE"
        assert time.monotonic() - started < 1.0, "Redis gone: the copy stops serving at once"
    finally:
        cluster.redis.start()
    statuses = set()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        answer = player.balance(1)
        statuses.add(answer.status_code)
        if answer.status_code == 200:
            assert answer.json().get("success") is not True, "a session deleted while deaf was served from a copy"
            break
        time.sleep(0.05)
    assert 200 in statuses, f"recovered without a restart ({statuses})"
    again = Player.on(cluster)
    again.login(on=0)
    assert again.logged_in_on(1)
    again.close()
