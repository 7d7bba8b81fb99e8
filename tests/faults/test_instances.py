"""Three gateway instances on one real Redis, as operators run them, meeting what operation brings:
an instance killed with -9 in the middle of a withdrawal, an instance stopped while a player's
retry waits, Redis killed with -9 under load, a platform answering a gzip bomb or an answer too
big to share, and load followed by quiet, in which Redis must hear nothing it does not need."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator
from decimal import Decimal

import httpx
import pytest

from gateway.monitoring.instances import BEAT_COMMANDS
from tests.faults import rogue
from tests.faults.rogue import RogueUpstream
from tests.support.browser import Browser
from tests.support.cluster import Cluster, commands_between
from tests.support.fixtures import cluster_running
from tests.support.rawhttp import exchange

pytestmark = pytest.mark.redis

CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
EXCLUSIVE_DEADLINE_S = 10.0
DRAIN_TIMEOUT_S = 3.0
FINE = {200, 502, 503, 504}


@pytest.fixture(scope="module")
def bomb_platform() -> Iterator[RogueUpstream]:
    upstream = RogueUpstream()
    yield upstream
    upstream.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, bomb_platform: RogueUpstream) -> Iterator[Cluster]:
    hostile = f"""
[[skins]]
id = "hostile"
site_id = "hostile"
name = "Hostile Platform"
hosts = ["hostile.localhost"]
currency = "INR"
currency_symbol = "Bs."
[skins.upstreams]
api = "{bomb_platform.url}"
capi = "{bomb_platform.url}"
sbapi = "{bomb_platform.url}"
rest = "{bomb_platform.url}"
"""
    env = {"UPSTREAM_TIMEOUTS": f"exclusive=1/8/{EXCLUSIVE_DEADLINE_S:g}", "DRAIN_TIMEOUT_S": f"{DRAIN_TIMEOUT_S:g}"}
    with cluster_running(tmp_path_factory.mktemp("instances"), env=env, extra_skins=hostile) as running:
        yield running


def new_player(cluster: Cluster, control: httpx.Client, login: str, source: str, instance: int = 0) -> Browser:
    """A player with 100,000 on the platform, logged in from their own address."""
    control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "100000"})
    player = Browser.on(cluster, source)
    assert player.attempt_login(login, "pw-123456", on=instance).json()["success"] is True
    return player


def withdrawals(control: httpx.Client, login: str) -> tuple[int, Decimal]:
    ledger = control.get("/_sandbox/sites/aurora/ledger").json()
    count = sum(1 for entry in ledger if entry["login"] == login and entry["kind"] == "cashout")
    cash = Decimal(control.get(f"/_sandbox/sites/aurora/players/{login}").json()["wallets"]["INR"]["cash"])
    return count, cash


def wait_ready(cluster: Cluster, within_s: float = 15.0) -> None:
    """Every instance ready again (the store answers): service resumes by itself."""
    deadline = time.monotonic() + within_s
    for gateway in cluster.gateways:
        while httpx.get(gateway.url + "/bff/ready").status_code != 200:
            assert time.monotonic() < deadline, f"{gateway.name} is not ready {within_s} s after the store returned"
            time.sleep(0.1)


def test_a_withdrawal_retried_after_its_instance_was_killed_is_never_paid_twice(
    cluster: Cluster, control: httpx.Client
) -> None:
    """Seen from outside: the retry on another instance polled the dead instance's record for
    156 s and never answered."""
    player = new_player(cluster, control, "killed01", "127.0.31.1")
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 2500, "count": 1})
    key = {"Idempotency-Key": "killed01-withdrawal-1"}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first = pool.submit(player.post, CASHOUT, WITHDRAWAL, key, on=0)
        time.sleep(0.8)  # the platform has the call
        cluster.gateways[0].kill()
        with pytest.raises(httpx.TransportError):
            first.result(timeout=10)
    try:
        started = time.monotonic()
        retry = player.post(CASHOUT, WITHDRAWAL, key, on=1)
        took = time.monotonic() - started
        assert retry.status_code == 502 and retry.json()["code"] == "OUTCOME_UNKNOWN", retry.text
        assert took < EXCLUSIVE_DEADLINE_S, f"answered in {took:.1f} s, within the route's deadline"
        time.sleep(2.5)  # the platform finishes the first call on its own
        assert withdrawals(control, "killed01") == (1, Decimal(99000))
        again = player.post(CASHOUT, WITHDRAWAL, key, on=2)
        assert again.json()["code"] == "OUTCOME_UNKNOWN", "the key's outcome stays unknown: never sent twice"
        assert withdrawals(control, "killed01") == (1, Decimal(99000))
        fresh = player.post(CASHOUT, WITHDRAWAL, {"Idempotency-Key": "killed01-withdrawal-2"}, on=2)
        assert fresh.json()["success"] is True, "a new action with a new key goes through"
    finally:
        player.close()
        cluster.revive(0)
    print(f"retry after kill -9 answered {retry.status_code} {retry.json()['code']} in {took:.2f} s")


def test_a_retry_waiting_on_a_slow_withdrawal_does_not_hold_up_shutdown(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = new_player(cluster, control, "drain01", "127.0.31.2")
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 6000, "count": 1})
    key = {"Idempotency-Key": "drain01-withdrawal-1"}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(player.post, CASHOUT, WITHDRAWAL, key, on=1)
        time.sleep(0.5)
        waiting = pool.submit(player.post, CASHOUT, WITHDRAWAL, key, on=2)
        time.sleep(0.7)
        try:
            took = cluster.gateways[2].terminate(within_s=DRAIN_TIMEOUT_S + 4)
            assert took <= DRAIN_TIMEOUT_S + 3, f"exited {took:.1f} s after SIGTERM"
            assert cluster.gateways[2].process is not None and cluster.gateways[2].process.returncode == 0
            interrupted = waiting.result(timeout=10)
            assert interrupted.status_code == 502 and interrupted.json()["code"] == "OUTCOME_UNKNOWN"
            assert first.result(timeout=15).json()["success"] is True
        finally:
            cluster.revive(2)
    assert withdrawals(control, "drain01")[0] == 1
    replay = player.post(CASHOUT, WITHDRAWAL, key, on=0)
    assert replay.json()["success"] is True and replay.headers["idempotent-replayed"] == "true"
    player.close()


def withdraw_while_redis_pauses_writes(
    cluster: Cluster, control: httpx.Client, player: Browser, key: str | None
) -> httpx.Response:
    """A withdrawal whose answer comes back while Redis takes no writes (`CLIENT PAUSE ... WRITE`:
    a failover, a blip), so its record cannot be finished nor its slot freed; returned once
    Redis takes writes again and the instance had time to retry (its fail-fast second, one more)."""
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 1000, "count": 1})
    headers = {"Idempotency-Key": key} if key is not None else {}
    with concurrent.futures.ThreadPoolExecutor(1) as pool, cluster.redis.client() as redis:
        first = pool.submit(player.post, CASHOUT, WITHDRAWAL, headers, on=0)
        time.sleep(0.4)  # the slot is taken; the platform has the call
        redis.execute_command("CLIENT", "PAUSE", 2000, "WRITE")
        made = first.result(timeout=15)
        redis.set("paused-probe", b"1", px=1000)  # answers once the pause is over
    time.sleep(2.0)
    return made


def test_a_withdrawal_whose_release_redis_refused_does_not_block_the_next_one(
    cluster: Cluster, control: httpx.Client
) -> None:
    """Seen from outside before the release was retried: the player's next withdrawal was 409 and a
    replay of the first waited the route's whole deadline, then said the outcome was unknown."""
    player = new_player(cluster, control, "paused01", "127.0.31.5")
    made = withdraw_while_redis_pauses_writes(cluster, control, player, "paused01-withdrawal-1")
    assert made.status_code == 200 and made.json()["success"] is True, made.text
    fresh = player.post(CASHOUT, WITHDRAWAL, {"Idempotency-Key": "paused01-withdrawal-2"}, on=1)
    started = time.monotonic()
    replay = player.post(CASHOUT, WITHDRAWAL, {"Idempotency-Key": "paused01-withdrawal-1"}, on=2)
    took = time.monotonic() - started
    player.close()
    assert fresh.status_code == 200 and fresh.json()["success"] is True, fresh.text
    assert replay.status_code == 200 and replay.headers.get("idempotent-replayed") == "true", replay.text
    assert replay.json() == made.json() and took < 1.0, f"the first outcome, at once ({took:.2f} s)"
    assert withdrawals(control, "paused01") == (2, Decimal(98000))


def test_a_withdrawal_without_a_key_whose_landing_redis_refused_does_not_block_the_next_one(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = new_player(cluster, control, "paused02", "127.0.31.6")
    made = withdraw_while_redis_pauses_writes(cluster, control, player, None)
    assert made.status_code == 200 and made.json()["success"] is True, made.text
    fresh = player.post(CASHOUT, {**WITHDRAWAL, "amount": 2000}, on=1)
    player.close()
    assert fresh.status_code == 200 and fresh.json()["success"] is True, fresh.text
    assert withdrawals(control, "paused02") == (2, Decimal(97000))


def test_after_load_an_idle_cluster_sends_redis_only_its_own_traffic(cluster: Cluster, control: httpx.Client) -> None:
    """Seen from outside: after bursts of identical reads, dozens of lease renewals went on
    calling Redis twice a second each, for flights that had ended."""
    time.sleep(2)
    before = cluster.redis.commands()
    time.sleep(5)
    quiet = commands_between(before, cluster.redis.commands())
    player = new_player(cluster, control, "idle01", "127.0.31.3")
    control.put("/_sandbox/faults/balance", json={"latencyMs": 150})
    cookies = "; ".join(f"{name}={value}" for name, value in player.http.cookies.items())
    token = player.http.cookies.get("XSRF-TOKEN") or ""

    async def burst(n: int) -> list[int]:
        async def one(i: int) -> int:
            url = cluster.gateways[i % 3].url
            headers = {"cookie": cookies, "x-xsrf-token": token, "content-type": "application/json"}
            if i % 4 == 0:
                answer = await exchange(url, "127.0.31.3", "GET", f"/capi/home-banners?burst={n}", {})
            else:
                answer = await exchange(url, "127.0.31.3", "POST", "/api/cashier/balance", headers, b"{}")
            return answer.status

        return list(await asyncio.gather(*(one(i) for i in range(300))))

    for n in range(3):
        statuses = asyncio.run(burst(n))
        assert set(statuses) == {200}, sorted(set(statuses))
    control.delete("/_sandbox/faults")
    time.sleep(1)
    before = cluster.redis.commands()
    time.sleep(5)
    idle = commands_between(before, cluster.redis.commands())
    player.close()
    print(f"Redis commands in 5 idle seconds: before the load {quiet}, after it {idle}")
    # The instances' heartbeats are constant, but a 5 s window holds one more or less of each instance's.
    beats = BEAT_COMMANDS * len(cluster.gateways)
    assert sum(idle.values()) <= sum(quiet.values()) + 3 + beats, f"idle traffic grew after the load: {quiet} -> {idle}"
    assert not {"evalsha", "eval", "set", "get", "pexpire"} & idle.keys(), f"per-flight traffic while idle: {idle}"


def test_redis_killed_and_restarted_under_load_is_a_503_never_a_500(cluster: Cluster, control: httpx.Client) -> None:
    team = []
    for n in range(12):
        login = f"rkill{n:02d}"
        team.append((login, new_player(cluster, control, login, f"127.0.32.{n + 1}", instance=n % 3)))
    seen: list[tuple[int, str | None]] = []

    def play(entry: tuple[str, Browser]) -> None:
        login, browser = entry
        for round_ in range(30):
            instance = round_ % 3
            key = {"Idempotency-Key": f"{login}-{round_}"}
            for answer in (
                browser.post("/api/cashier/balance", on=instance),
                browser.get(f"/capi/home-banners?r={round_ % 5}", on=instance),
                browser.post(CASHOUT, WITHDRAWAL, key, on=instance),
            ):
                code = answer.json().get("code") if answer.status_code >= 500 else None
                seen.append((answer.status_code, code))
            time.sleep(0.03)

    with concurrent.futures.ThreadPoolExecutor(len(team)) as pool:
        running = [pool.submit(play, entry) for entry in team]
        time.sleep(0.5)
        cluster.redis.kill()
        time.sleep(1.0)
        cluster.redis.start()
        for future in running:
            future.result()
    for _, browser in team:
        browser.close()
    wait_ready(cluster)
    statuses = {status for status, _ in seen}
    assert statuses <= FINE, statuses
    assert (503, "STORE_UNAVAILABLE") in seen, "the outage was seen"
    assert {code for status, code in seen if status == 503} <= {"STORE_UNAVAILABLE", "UPSTREAM_UNAVAILABLE"}


def test_a_gzip_bomb_is_a_502_for_that_call_only_and_nothing_big_reaches_redis(
    cluster: Cluster, control: httpx.Client, bomb_platform: RogueUpstream
) -> None:
    """Seen from outside: a 100 kB gzip answer holding 100 MB was inflated whole (RSS 100 -> 345
    MB) and written to Redis as the flight's shared result; that write tripped Redis's timeout
    and the instance answered 503 to everyone for seconds."""
    bystander = new_player(cluster, control, "bystander1", "127.0.31.4")
    hostile = {"host": "hostile.localhost"}
    gateway = cluster.gateways[1]
    rss_before = gateway.peak_rss_mb()
    with cluster.redis.client() as redis:
        memory_before = int(redis.info("memory")["used_memory_peak"])
    bomb_platform.behaviour = rogue.gzip_bomb
    try:
        with httpx.Client(timeout=30) as visitor, concurrent.futures.ThreadPoolExecutor(4) as pool:
            bombs = [
                pool.submit(visitor.get, f"{gateway.url}/capi/home-banners?bomb={n}", headers=hostile) for n in range(3)
            ]
            polls = [bystander.post("/api/cashier/balance", on=1) for _ in range(20)]
            answers = [future.result() for future in bombs]
        bomb_platform.behaviour = rogue.big
        with httpx.Client(timeout=30) as visitor, concurrent.futures.ThreadPoolExecutor(6) as pool:
            bigs = list(
                pool.map(
                    lambda n: visitor.get(f"{cluster.gateways[n % 3].url}/capi/home-banners?big=1", headers=hostile),
                    range(6),
                )
            )
    finally:
        bomb_platform.behaviour = rogue.ok
    bystander.close()
    assert {a.status_code for a in answers} == {502}, [a.text[:100] for a in answers]
    assert {a.json()["code"] for a in answers} == {"UPSTREAM_FAILED"}
    assert {p.status_code for p in polls} == {200}, "other players were served all along"
    assert all(b.status_code == 200 and len(b.content) == len(rogue.BIG) for b in bigs), "a big answer is served"
    grown = gateway.peak_rss_mb() - rss_before
    with cluster.redis.client() as redis:
        peak = int(redis.info("memory")["used_memory_peak"])
        largest = max((redis.memory_usage(key) or 0) for key in redis.scan_iter(count=1000))
    print(f"gzip bomb: gateway peak RSS +{grown:.0f} MB; Redis peak {peak / 1e6:.1f} MB, largest key {largest} bytes")
    assert grown < rogue.BOMB_MB * 0.6, f"the gateway grew {grown:.0f} MB reading a {rogue.BOMB_MB} MB bomb"
    assert largest < 1_100_000, "nothing over the store's 1 MiB bound is kept in Redis"
    assert peak - memory_before < 8_000_000, "nor was it ever written (the 2 MB answers were served, not shared)"
