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
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import httpx
import pytest

from gateway import keys
from gateway.settings import SharedRedis
from gateway.store import StoreUnavailable
from gateway.store.redis import FailFast, RedisShared, connect
from gateway.store.sentinel import close
from tests.support.browsers import Browser
from tests.support.cluster import Cluster, RedisServer, require_redis_server, start_cluster
from tests.support.sentinels import SERVICE, ReplicaSet, online_replicas, start_replica_set
from tests.support.stack import free_port

pytestmark = pytest.mark.redis

CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
START_CASH = Decimal(100000)
PLAYERS = 10
WITHDRAWALS_EACH = 20  # the cashier allows a session 30 calls a minute, retries included
SERVING_WITHIN_S = 5.0


@pytest.fixture(scope="module")
def replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReplicaSet]:
    group = start_replica_set(tmp_path_factory.mktemp("replicas"))
    yield group
    group.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, replicas: ReplicaSet) -> Iterator[Cluster]:
    env = {"REDIS_URL": "", "REDIS_SENTINELS": replicas.addresses, "REDIS_SENTINEL_MASTER": SERVICE,
           "REDIS_WAIT_REPLICAS": "1", "UPSTREAM_TIMEOUTS": "exclusive=1/8/10"}  # fmt: skip
    running = start_cluster(tmp_path_factory.mktemp("failover"), env=env, redis=replicas.primary)
    yield running
    running.stop()
    running.assert_clean_logs()


@dataclass
class Answer:
    sent: float
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
        answer = browser.post(instance, path, WITHDRAWAL if what == "withdrawal" else None, headers)
        code = answer.json().get("code") if answer.status_code >= 400 else None
        self.answers.append(Answer(sent, instance, what, answer.status_code, code))
        return answer

    def withdraw(self, login: str, browser: Browser, key: str, instance: int) -> None:
        """Until it is answered other than 503 (another instance each time, as a balancer would)."""
        for attempt in range(300):
            answer = self.call(browser, (instance + attempt) % 3, "withdrawal", CASHOUT, {"Idempotency-Key": key})
            if answer.status_code != 503:
                break
            time.sleep(0.05)
        if answer.status_code == 200 and answer.json().get("cashoutId"):
            self.paid[login][key] = answer.json()["cashoutId"]

    def play(self, n: int, login: str, browser: Browser) -> None:
        self.paid[login] = {}
        made, last = 0, 0.0
        for round_ in range(10_000):
            if self.stop.is_set():
                return
            self.call(browser, (n + round_) % 3, "read", "/api/cashier/balance", {})
            if made < WITHDRAWALS_EACH and time.monotonic() - last > 0.35:
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


def test_a_primary_killed_under_load_fails_over_with_503s_only_and_an_exact_ledger(
    cluster: Cluster, replicas: ReplicaSet, control: httpx.Client
) -> None:
    team = []
    for n in range(PLAYERS):
        login = f"failover{n:02d}"
        control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "100000"})
        browser = Browser(cluster, f"127.0.33.{n + 1}")
        assert browser.login(login, "pw-123456", n % 3).json()["success"] is True
        team.append((login, browser))
    assert all_ready(cluster)
    assert replicas.primary_port() == replicas.primary.port
    load = Load()
    with concurrent.futures.ThreadPoolExecutor(PLAYERS) as pool:
        running = [pool.submit(load.play, n, login, browser) for n, (login, browser) in enumerate(team)]
        time.sleep(2.0)
        killed = time.monotonic()
        replicas.primary.kill()
        while replicas.promoted() is None:
            assert time.monotonic() - killed < 20, "no replica was promoted"
            time.sleep(0.02)
        promoted = time.monotonic()
        while not all_ready(cluster):
            assert time.monotonic() - promoted < 15, "the gateways did not follow the new primary"
            time.sleep(0.05)
        serving = time.monotonic()
        time.sleep(3.0)
        load.stop.set()
        for future in running:
            future.result(timeout=60)
    for _, browser in team:
        browser.close()

    statuses = Counter((a.status, a.code) for a in load.answers)
    refused = [a for a in load.answers if a.status == 503]
    window = [round(a.sent - killed, 2) for a in refused]
    print(f"\nkill -> promotion {promoted - killed:.2f} s, promotion -> all instances ready {serving - promoted:.2f} s;"
          f" {len(load.answers)} answers {dict(statuses)}; 503s sent {min(window, default=0)} to"
          f" {max(window, default=0)} s after the kill")  # fmt: skip
    assert {status for status, _ in statuses} <= {200, 503}, statuses
    assert {code for status, code in statuses if status == 503} <= {"STORE_UNAVAILABLE"}
    assert refused, "the failover was seen"
    assert all(killed - 0.1 <= a.sent <= serving + 1.0 for a in refused), "503 only while the primary was away"
    assert serving - promoted < SERVING_WITHIN_S, f"serving {serving - promoted:.1f} s after the promotion"
    for login, _ in team:
        references, cash = ledger(control, login)
        paid = load.paid[login]
        assert len(paid) == WITHDRAWALS_EACH or load.stop.is_set()
        assert Counter(references) == Counter(paid.values()), f"{login}: ledger {references} != paid {paid}"
        assert cash == START_CASH - 1000 * len(references), f"{login}'s balance"


def test_a_money_claim_no_replica_took_is_refused_and_given_back(tmp_path_factory: pytest.TempPathFactory) -> None:
    """With REDIS_WAIT_REPLICAS, a claim counts only once a replica holds it; one that none took
    is not left behind to block the player's retry with the same key."""
    binary = require_redis_server()
    primary = RedisServer(
        binary, free_port(), tmp_path_factory.mktemp("lonely"), options=("--repl-diskless-sync-delay", "0")
    )
    primary.start()
    replica = RedisServer(binary, free_port(), tmp_path_factory.mktemp("late"),
                          options=("--replicaof", "127.0.0.1", str(primary.port)))  # fmt: skip
    record = keys.of_skin("aurora", keys.IDEMPOTENCY, "lonely-key")

    async def claim() -> tuple[bool, bytes | None, bool]:
        redis = connect(SharedRedis(url=primary.url, wait_replicas=1))
        try:
            return await RedisShared(redis, FailFast(), wait_replicas=1).claim(record, b"r", 60_000, record + ":h",
                                                                               b"i:1", 5_000)  # fmt: skip
        finally:
            await close(redis)

    try:
        with pytest.raises(StoreUnavailable, match="0 of 1 replicas"):
            asyncio.run(claim())
        with primary.client() as client:
            assert client.exists(record, record + ":h") == 0, "the claim was given back"
        replica.start()
        while online_replicas(primary) < 1:
            time.sleep(0.05)
        assert asyncio.run(claim()) == (True, None, True)
        with replica.client() as client:
            assert client.get(record) == b"r", "the replica holds the claim before the call goes out"
    finally:
        replica.stop()
        primary.stop()
