"""Three gateway processes on three ports sharing a real Redis, in front of one sandbox.
No balancer: the tests spread requests over the instances themselves."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import ADMIN_TOKEN, Cluster
from tests.support.fixtures import cluster_fixture, sandbox_url_fixture, upstream_calls

pytestmark = pytest.mark.redis


cluster = cluster_fixture("cluster", never=None)
sandbox_url = sandbox_url_fixture("cluster")


@pytest.fixture
def player(cluster: Cluster, control: httpx.Client) -> Iterator[Browser]:
    b = Browser.on(cluster)
    yield b
    b.close()


def test_a_session_made_on_one_instance_works_on_the_others(player: Browser) -> None:
    player.login(on=0)
    for instance in (1, 2):
        answer = player.post("/api/player/getProfile", on=instance).json()
        assert answer["login"] == "demo1", answer
        assert player.get("/bff/session", on=instance).json()["loggedIn"] is True


def test_identical_reads_spread_over_three_instances_reach_the_platform_once_per_instance(
    player: Browser, control: httpx.Client
) -> None:
    """Reads join in each instance, not across them: joining across costs two Redis round trips
    on every read, to save at most one platform call per instance in a burst like this."""
    player.login(on=0)
    control.put("/_sandbox/faults/balance", json={"latencyMs": 600})
    control.delete("/_sandbox/calls")
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(lambda n: player.post("/api/cashier/balance", on=n % 3), range(30)))
    assert {a.status_code for a in answers} == {200}
    assert {a.json()["values"][0]["cash"]["value"] for a in answers} == {5000.0}
    assert 1 <= upstream_calls(control, "balance") <= 3


def test_identical_content_reads_spread_over_three_instances_reach_the_platform_once(
    player: Browser, control: httpx.Client
) -> None:
    path = f"/capi/header-links?nonce={time.time_ns()}"
    control.put("/_sandbox/faults/headerLinks", json={"latencyMs": 600})
    control.delete("/_sandbox/calls")
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(lambda n: player.get(path, on=n % 3), range(30)))
    assert {a.status_code for a in answers} == {200}
    assert upstream_calls(control, "headerLinks") == 1


def test_a_withdrawal_sent_to_two_instances_at_once_is_made_once(player: Browser, control: httpx.Client) -> None:
    player.login(on=0)
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 400})
    control.delete("/_sandbox/calls")
    body = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first, second = pool.map(lambda n: player.post("/api/cashier/cashout12", body, on=n), (0, 1))
    assert upstream_calls(control, "cashout12") == 1
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() and first.json()["success"] is True
    cash = control.get("/_sandbox/sites/aurora/players/demo1").json()["wallets"]["INR"]["cash"]
    assert cash == "4000.00", "charged once"


def test_an_idempotent_replay_reaches_no_upstream(player: Browser, control: httpx.Client) -> None:
    player.login(on=0)
    body = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
    key = {"Idempotency-Key": f"withdraw-{time.time_ns()}"}
    first = player.post("/api/cashier/cashout12", body, headers=key, on=0)
    control.delete("/_sandbox/calls")
    replay = player.post("/api/cashier/cashout12", body, headers=key, on=2)
    assert replay.json() == first.json()
    assert replay.headers["idempotent-replayed"] == "true"
    assert upstream_calls(control, "cashout12") == 0


def test_content_is_cached_across_instances(player: Browser, control: httpx.Client) -> None:
    path = f"/capi/header-links?nonce={time.time_ns()}"
    control.delete("/_sandbox/calls")
    states = [player.get(path, on=n).headers["x-cache"] for n in (0, 1, 2)]
    assert states == ["MISS", "HIT", "HIT"]
    assert upstream_calls(control, "headerLinks") == 1


def test_a_follower_completes_when_its_leader_dies(cluster: Cluster, player: Browser, control: httpx.Client) -> None:
    """Content joins across instances: when the instance making the call dies, one that
    waited for it makes the call itself."""
    path = f"/capi/header-links?nonce={time.time_ns()}"
    control.put("/_sandbox/faults/headerLinks", json={"latencyMs": 1500})
    control.delete("/_sandbox/calls")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        leader = pool.submit(player.get, path, on=0)
        time.sleep(0.3)
        follower = pool.submit(player.get, path, on=1)
        time.sleep(0.3)
        cluster.gateways[0].kill()
        answer = follower.result(timeout=20)
        with pytest.raises(httpx.TransportError):
            leader.result(timeout=20)
    assert answer.status_code == 200 and answer.json()
    assert upstream_calls(control, "headerLinks") == 2, "the follower took over once its leader was gone"
    cluster.gateways[0].start("/bff/health")


def test_a_redis_outage_fails_fast_serves_content_and_recovers(
    cluster: Cluster, player: Browser, control: httpx.Client
) -> None:
    player.login(on=0)
    assert player.get("/capi/home-banners", on=0).status_code == 200
    cluster.redis.stop()
    try:
        started = time.monotonic()
        answer = player.post("/api/cashier/balance", on=0)
        while answer.status_code == 200 and time.monotonic() - started < 1.0:
            answer = player.post("/api/cashier/balance", on=0)  # the session's copy, until Redis is known gone
        elapsed = time.monotonic() - started
        assert answer.status_code == 503 and answer.json()["code"] == "STORE_UNAVAILABLE"
        assert elapsed < 1.0, f"fails fast ({elapsed:.2f}s)"
        content = player.get("/capi/home-banners", on=0)
        assert content.status_code == 200, "anonymous content is still served"
        assert player.get("/bff/ready", on=0).json()["status"] == "degraded"
    finally:
        cluster.redis.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and player.get("/bff/ready", on=0).status_code != 200:
        time.sleep(0.2)
    assert player.get("/bff/ready", on=0).status_code == 200, "recovered without a restart"
    again = Browser.on(cluster)
    again.login(on=2)
    assert again.post("/api/cashier/balance", on=0).json()["success"] is True
    again.close()


@pytest.fixture(autouse=True)
def _logs_on_failure(request: pytest.FixtureRequest, cluster: Cluster) -> Iterator[None]:
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for process in [*cluster.gateways, cluster.sandbox]:
            print(f"--- {process.name}\n{Path(process.log).read_text(errors='replace')[-2000:]}")


def test_a_burst_never_reads_as_a_redis_outage(cluster: Cluster, player: Browser, control: httpx.Client) -> None:
    """500 concurrent reads on one instance: more than its Redis pool has connections."""
    import asyncio

    player.login(on=0)
    control.put("/_sandbox/faults/balance", json={"latencyMs": 300})
    cookies = player.http.cookies
    token = cookies.get("XSRF-TOKEN") or ""

    async def burst() -> list[int]:
        limits = httpx.Limits(max_connections=500)
        async with httpx.AsyncClient(cookies=cookies, limits=limits, timeout=30) as client:
            answers = await asyncio.gather(
                *(
                    client.post(player.urls[0] + "/api/cashier/balance", json={}, headers={"X-XSRF-TOKEN": token})
                    for _ in range(500)
                )
            )
        return [a.status_code for a in answers]

    assert set(asyncio.run(burst())) == {200}


def test_an_upstream_change_on_one_instance_reaches_the_others_within_a_second(cluster: Cluster) -> None:
    admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    # The same sandbox under another name: a different base URL that answers the probe.
    moved = cluster.sandbox.url.replace("127.0.0.1", "localhost")

    def overrides(instance: int) -> object:
        return httpx.get(cluster.admin_urls[instance] + "/admin/status", headers=admin).json()["config"]["overrides"]

    try:
        answer = httpx.put(
            cluster.admin_urls[0] + "/admin/skins/aurora/upstreams/capi", json={"url": moved}, headers=admin, timeout=10
        )
        assert answer.status_code == 200 and answer.json()["outcome"] == "applied", answer.text
        changed = time.monotonic()
        pending = {1, 2}
        while pending and time.monotonic() - changed < 1.0:
            pending = {n for n in pending if overrides(n) != {"aurora": {"capi": moved}}}
            time.sleep(0.02)
        assert not pending, "every instance follows within a second"
        versions = {
            httpx.get(url + "/admin/status", headers=admin).json()["config"]["version"] for url in cluster.admin_urls
        }
        assert len(versions) == 1, "one configuration version everywhere"
    finally:
        httpx.delete(cluster.admin_urls[0] + "/admin/skins/aurora/upstreams/capi", headers=admin, timeout=10)
