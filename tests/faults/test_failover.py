"""Redis fails over under load: a primary, two replicas and three Sentinels (real processes),
three gateway instances that know only the sentinels, players reading their balance and
withdrawing (each withdrawal under its own Idempotency-Key, retried with it on a 503) while
the primary is killed with -9. Players see 503 STORE_UNAVAILABLE while no primary is known,
never a 500; the gateways serve again within seconds of the promotion; the platform's ledger
holds every paid withdrawal once and nothing else."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import httpx
import pytest

from gateway.store import Claim, StoreUnavailable, keys
from gateway.store.address import SharedRedis
from gateway.store.redis import FailFast, RedisShared, connect
from gateway.store.sentinel import close
from tests.support.browser import Browser
from tests.support.cluster import Cluster, RedisServer, require_redis_server
from tests.support.fixtures import cluster_running
from tests.support.sentinels import SERVICE, ReplicaSet, online_replicas, start_replica_set
from tests.support.stack import free_port

pytestmark = pytest.mark.redis

CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
START_CASH = Decimal(100000)
PLAYERS = 10
WITHDRAWALS_EACH = 15  # the cashier allows a session 30 calls a minute, retries included
SERVING_WITHIN_S = 5.0


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReplicaSet]:
    group = start_replica_set(tmp_path_factory.mktemp("replicas"))
    yield group
    group.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, replicas: ReplicaSet) -> Iterator[Cluster]:
    env = {
        "REDIS_URL": "",
        "REDIS_SENTINELS": replicas.addresses,
        "REDIS_SENTINEL_MASTER": SERVICE,
        "REDIS_WAIT_REPLICAS": "1",
        "UPSTREAM_TIMEOUTS": "exclusive=1/8/10",
    }
    with cluster_running(tmp_path_factory.mktemp("failover"), env=env, redis=replicas.primary) as running:
        yield running


@dataclass
class Answer:
    sent: float
    received: float
    instance: int
    what: str
    status: int
    code: str | None


@dataclass
class Load:
    """What the players saw, and what they were paid: Idempotency-Key -> cashoutId, per player."""

    answers: list[Answer] = field(default_factory=list)
    paid: dict[str, dict[str, str]] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def call(self, browser: Browser, instance: int, what: str, path: str, headers: dict[str, str]) -> httpx.Response:
        sent = time.monotonic()
        answer = browser.post(path, WITHDRAWAL if what == "withdrawal" else None, headers, on=instance)
        code = answer.json().get("code") if answer.status_code >= 400 else None
        self.answers.append(Answer(sent, time.monotonic(), instance, what, answer.status_code, code))
        return answer

    def withdraw(self, login: str, browser: Browser, key: str, instance: int) -> None:
        """Until it is answered other than 503 (another instance each time, as a balancer would)."""
        for attempt in range(300):
            answer = self.call(browser, (instance + attempt) % 3, "withdrawal", CASHOUT, {"Idempotency-Key": key})
            if answer.status_code != 503:
                break
            time.sleep(0.25)  # a player's retry, a little before the answer's Retry-After
        if answer.status_code == 200 and answer.json().get("cashoutId"):
            self.paid[login][key] = answer.json()["cashoutId"]

    def play(self, n: int, login: str, browser: Browser) -> None:
        self.paid[login] = {}
        made, last = 0, 0.0
        for round_ in range(10_000):
            if self.stop.is_set():
                return
            self.call(browser, (n + round_) % 3, "read", "/api/cashier/balance", {})
            if made < WITHDRAWALS_EACH and time.monotonic() - last > 0.5:
                self.withdraw(login, browser, f"{login}-withdrawal-{made}", (n + round_ + 1) % 3)
                made, last = made + 1, time.monotonic()
            time.sleep(0.05)


def ledger(control: httpx.Client, login: str) -> tuple[list[str], Decimal]:
    entries = control.get("/_sandbox/sites/aurora/ledger").json()
    references = [e["reference"] for e in entries if e["login"] == login and e["kind"] == "cashout"]
    cash = Decimal(control.get(f"/_sandbox/sites/aurora/players/{login}").json()["wallets"]["INR"]["cash"])
    return references, cash


def all_ready(cluster: Cluster) -> bool:
    return all(httpx.get(g.url + "/bff/ready", timeout=2).status_code == 200 for g in cluster.gateways)


def players(cluster: Cluster, control: httpx.Client, name: str, network: int) -> list[tuple[str, Browser]]:
    team = []
    for n in range(PLAYERS):
        login = f"{name}{n:02d}"
        control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "100000"})
        browser = Browser.on(cluster, f"127.0.{network}.{n + 1}")
        assert browser.attempt_login(login, "pw-123456", on=n % 3).json()["success"] is True
        team.append((login, browser))
    return team


@dataclass
class Failover:
    began: float
    """The primary was killed, or the planned failover asked for."""
    promoted: float
    """A replica says it is the primary (or the old primary that it is a replica)."""
    serving: float
    """Every instance is ready again."""


def under_load(
    cluster: Cluster, team: list[tuple[str, Browser]], trouble: Callable[[], float]
) -> tuple[Load, Failover]:
    """The players play; 2 s in, `trouble` happens (it returns once the new primary is in place);
    then the load goes on until every instance is ready again, and 3 s more."""
    assert all_ready(cluster)
    load = Load()
    with concurrent.futures.ThreadPoolExecutor(PLAYERS) as pool:
        running = [pool.submit(load.play, n, login, browser) for n, (login, browser) in enumerate(team)]
        time.sleep(2.0)
        began = time.monotonic()
        promoted = trouble()
        while not all_ready(cluster):
            assert time.monotonic() - promoted < 15, "the gateways did not follow the new primary"
            time.sleep(0.05)
        failover = Failover(began, promoted, time.monotonic())
        time.sleep(3.0)
        load.stop.set()
        for future in running:
            future.result(timeout=60)
    for _, browser in team:
        browser.close()
    return load, failover


def assert_served_through(load: Load, failover: Failover, control: httpx.Client, what: str) -> None:
    """No 500 (nothing but 200 and 503 STORE_UNAVAILABLE); reads refused only until every instance
    is ready, withdrawals until the new primary has a replica that takes their claims (the old one's
    replicas resync to it first); every paid withdrawal in the ledger once, and nothing else."""
    statuses = Counter((a.status, a.code) for a in load.answers)
    for a in load.answers:
        if a.status not in (200, 503):
            print(f"ODD {a.what} {a.status} {a.code} on {a.instance} sent {a.sent - failover.began:.2f} s")
    refused = {
        kind: [round(a.received - failover.began, 2) for a in load.answers if a.status == 503 and a.what == kind]
        for kind in ("read", "withdrawal")
    }
    after = [a for a in load.answers if a.what == "withdrawal" and a.status == 200 and a.sent > failover.serving]
    print(
        f"\n{what}: -> new primary {failover.promoted - failover.began:.2f} s, -> every instance ready"
        f" {failover.serving - failover.began:.2f} s; {len(load.answers)} answers {dict(statuses)}; 503s answered"
        + "".join(f", {k} {min(t, default=0)}-{max(t, default=0)} s" for k, t in refused.items())
    )
    assert {status for status, _ in statuses} <= {200, 503}, statuses
    assert {code for status, code in statuses if status == 503} <= {"STORE_UNAVAILABLE"}
    ready = failover.serving - failover.began
    assert all(0 <= t <= ready + 1.0 for t in refused["read"]), "reads refused only until the instances are ready"
    assert all(0 <= t <= ready + SERVING_WITHIN_S for t in refused["withdrawal"]), "withdrawals resume within seconds"
    assert failover.serving - failover.promoted < SERVING_WITHIN_S, "serving again within seconds of the promotion"
    assert after, "withdrawals are paid again after the failover"
    for login, paid in load.paid.items():
        references, cash = ledger(control, login)
        assert Counter(references) == Counter(paid.values()), f"{login}: ledger {references} != paid {paid}"
        assert cash == START_CASH - 1000 * len(references), f"{login}'s balance"


def test_a_primary_killed_under_load_fails_over_with_503s_only_and_an_exact_ledger(
    cluster: Cluster, replicas: ReplicaSet, control: httpx.Client
) -> None:
    team = players(cluster, control, "killed", 33)
    primary = replicas.current()

    readiness: set[int] = set()

    def kill() -> float:
        primary.kill()
        while not replicas.promoted(besides=primary):
            readiness.add(httpx.get(cluster.gateways[0].url + "/bff/ready", timeout=2).status_code)
            time.sleep(0.02)
        return time.monotonic()

    load, failover = under_load(cluster, team, kill)
    assert [a for a in load.answers if a.status == 503], "the failover was seen"
    assert 503 in readiness, "an instance without a primary says it is not ready (balancers drain it)"
    assert_served_through(load, failover, control, "primary killed -9")


def test_a_planned_failover_demotes_a_live_primary_and_the_gateways_follow(
    cluster: Cluster, replicas: ReplicaSet, control: httpx.Client
) -> None:
    """The primary stays up and becomes a replica: connections still open to it would answer
    READONLY to every write (or serve reads from a replica) unless they are dropped."""
    team = players(cluster, control, "planned", 34)
    replicas.revive()  # the primary killed by the other test, back as a replica
    primary = replicas.current()

    def failover() -> float:
        with replicas.sentinels[0].client() as sentinel:
            assert sentinel.sentinel_failover(SERVICE)
        while replicas.current() is primary:  # the moment clients are told; the old primary is demoted up to 10 s later
            time.sleep(0.02)
        return time.monotonic()

    load, failover_ = under_load(cluster, team, failover)
    assert_served_through(load, failover_, control, "planned failover")


def test_a_money_claim_no_replica_took_is_refused_and_given_back(tmp_path_factory: pytest.TempPathFactory) -> None:
    """With REDIS_WAIT_REPLICAS, a claim counts only once a replica holds it; one that none took
    is not left behind to block the player's retry with the same key."""
    binary = require_redis_server()
    primary = RedisServer(
        binary, free_port(), tmp_path_factory.mktemp("lonely"), options=("--repl-diskless-sync-delay", "0")
    )
    primary.start()
    replica = RedisServer(
        binary, free_port(), tmp_path_factory.mktemp("late"), options=("--replicaof", "127.0.0.1", str(primary.port))
    )
    record = keys.of_skin("aurora", keys.IDEMPOTENCY, "lonely-key")

    slot = keys.exclusive_slot("aurora", "s1", "cashout12")

    async def claim() -> tuple[Claim, bytes | None, bool]:
        redis = connect(SharedRedis(url=primary.url, wait_replicas=1))
        try:
            return await RedisShared(redis, FailFast(), wait_replicas=1).claim(
                record, b"r", 60_000, record + ":h", b"i:1", 5_000, slot
            )
        finally:
            await close(redis)

    try:
        with pytest.raises(StoreUnavailable, match="0 of 1 replicas"):
            asyncio.run(claim())
        with primary.client() as client:
            assert client.exists(record, record + ":h", slot) == 0, "the claim (and its slot) was given back"
        replica.start()
        while online_replicas(primary) < 1:
            time.sleep(0.05)
        with primary.client() as client:  # the replica acknowledges writes (its first ack may take a second)
            while client.set("warm", b"1") and client.wait(1, 1000) < 1:
                pass
        assert asyncio.run(claim()) == ("claimed", None, True)
        with replica.client() as client:
            assert client.get(record) == b"r", "the replica holds the claim before the call goes out"
    finally:
        replica.stop()
        primary.stop()
