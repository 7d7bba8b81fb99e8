"""The sandbox platform failing one call in five, its store going away, the platform itself
restarting, all while players play: the gateway never answers 500, never hangs, and the
platform's ledger shows every withdrawal exactly as often as a player was told it happened."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import httpx

from tests.support.browser import Browser
from tests.support.cluster import Cluster
from tests.support.fixtures import cluster_fixture

CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}
FINE = {200, 502, 503, 504}  # an answer, or the common error JSON for a platform or store in trouble
PLAYERS = 12


cluster = cluster_fixture("faults", instances=2)


def players(cluster: Cluster, control: httpx.Client, prefix: str) -> list[tuple[str, Browser]]:
    made = []
    for n in range(PLAYERS):
        login = f"{prefix}{n:02d}"
        control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "100000"})
        player = Browser(cluster.gateways[n % len(cluster.gateways)].url, client_ip=f"10.40.{len(prefix)}.{n}")
        log_in(player, login)
        made.append((login, player))
    return made


def log_in(player: Browser, login: str) -> None:
    """As a player would: after a 503 (a breaker the last test's faults left open), again once
    the Retry-After has passed."""
    deadline = time.monotonic() + 15
    answer = player.post("/api/player/login", {"login": login, "password": "pw-123456"})
    while answer.status_code == 503 and time.monotonic() < deadline:
        time.sleep(float(answer.headers.get("retry-after", "1")))
        answer = player.post("/api/player/login", {"login": login, "password": "pw-123456"})
    assert answer.status_code == 200 and answer.json()["success"] is True, answer.text


def outcome(answer: httpx.Response) -> object:
    """What a player learns from an answer: the platform's reply, or the error's code (each
    error JSON has its own request id)."""
    body = answer.json()
    return (answer.status_code, body.get("code") if answer.status_code >= 500 else body)


def withdrawals_on_record(control: httpx.Client, login: str) -> tuple[int, Decimal]:
    """How many withdrawals the platform's ledger holds for `login`, and the cash left."""
    ledger = control.get("/_sandbox/sites/aurora/ledger").json()
    count = sum(1 for entry in ledger if entry["login"] == login and entry["kind"] == "cashout")
    cash = Decimal(control.get(f"/_sandbox/sites/aurora/players/{login}").json()["wallets"]["INR"]["cash"])
    return count, cash


def test_one_platform_error_in_five_under_load_loses_and_doubles_nothing(
    cluster: Cluster, control: httpx.Client
) -> None:
    team = players(cluster, control, "flaky")
    control.put("/_sandbox/faults/*", json={"errorRate": 0.2, "errorStatus": 500})
    problems: list[str] = []

    def play(entry: tuple[str, Browser]) -> int:
        login, player = entry
        told_done = 0
        for round_ in range(8):
            for answer in (player.post("/api/cashier/balance"), player.get(f"/capi/home-banners?r={round_}")):
                if answer.status_code not in FINE:
                    problems.append(f"{login}: {answer.request.url.path} answered {answer.status_code}")
            key = {"Idempotency-Key": f"{login}-{round_}"}
            first = player.post(CASHOUT, WITHDRAWAL, headers=key)
            again = player.post(CASHOUT, WITHDRAWAL, headers=key)  # the player's nervous second click
            if first.status_code not in FINE or again.status_code not in FINE:
                problems.append(f"{login}: withdrawal answered {first.status_code}, then {again.status_code}")
            if outcome(again) != outcome(first):
                problems.append(f"{login}: the same key answered differently ({first.status_code}/{again.status_code})")
            if first.status_code == 200 and first.json().get("success") is True:
                told_done += 1
        return told_done

    with ThreadPoolExecutor(PLAYERS) as pool:
        told = dict(zip((login for login, _ in team), pool.map(play, team), strict=True))
    control.delete("/_sandbox/faults")
    assert not problems, problems[:10]
    assert 0 < sum(told.values()) < PLAYERS * 8, "some withdrawals failed and some went through"
    for login, done in told.items():
        count, cash = withdrawals_on_record(control, login)
        assert count == done, f"{login} was told of {done} withdrawals, the ledger holds {count}"
        assert cash == Decimal(100000 - 1000 * done), f"{login} holds {cash}"


def test_the_store_going_away_and_back_under_load(cluster: Cluster, control: httpx.Client) -> None:
    team = players(cluster, control, "store")
    slow: list[str] = []
    statuses: set[int] = set()

    def play(entry: tuple[str, Browser], rounds: int = 25) -> None:
        login, player = entry
        for round_ in range(rounds):
            for call in (lambda: player.post("/api/cashier/balance"), lambda: player.get("/capi/home-banners")):
                started = time.monotonic()
                answer = call()
                statuses.add(answer.status_code)
                if time.monotonic() - started > 2.0:
                    slow.append(f"{login} round {round_}: {time.monotonic() - started:.1f}s")
            time.sleep(0.05)

    with ThreadPoolExecutor(PLAYERS) as pool:
        running = [pool.submit(play, entry) for entry in team]
        time.sleep(0.3)
        cluster.redis.stop()
        time.sleep(1.5)
        cluster.redis.start()
        for future in running:
            future.result()
    assert statuses <= FINE, statuses
    assert 503 in statuses, "the outage was seen"
    assert not slow, slow[:5]
    login, player = team[0]
    deadline = time.monotonic() + 10
    while player.get("/bff/ready").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    if player.get("/bff/session").json()["loggedIn"] is False:  # Redis keeps nothing on disk
        player.login(login, "pw-123456")
    assert player.post("/api/cashier/balance").json()["success"] is True


def test_a_platform_restart_mid_journey(cluster: Cluster, control: httpx.Client) -> None:
    login, player = players(cluster, control, "restart")[0]
    key = {"Idempotency-Key": f"{login}-before"}
    assert player.post(CASHOUT, WITHDRAWAL, headers=key).json()["success"] is True
    cluster.sandbox.kill()
    try:
        started = time.monotonic()
        down = player.post("/api/cashier/balance")
        assert down.status_code in (502, 503) and down.json()["code"].startswith("UPSTREAM_")
        assert time.monotonic() - started < 3.0, "a platform that is down is said so quickly"
        during = player.post(CASHOUT, WITHDRAWAL, headers={"Idempotency-Key": f"{login}-during"})
        assert during.status_code in (502, 503) and during.json()["code"] == "UPSTREAM_UNREACHABLE"
    finally:
        cluster.sandbox.start("/_sandbox/health")
    # The restarted platform forgot its sessions (and its players): ours ends, cleanly.
    deadline = time.monotonic() + 10
    answer = player.post("/api/cashier/balance")
    while answer.status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.3)
        answer = player.post("/api/cashier/balance")
    assert answer.status_code == 200 and answer.json()["code"] == "SESSION_EXPIRED"
    assert player.get("/bff/session").json()["loggedIn"] is False
    control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "pw-123456", "cash": "100000"})
    player.login(login, "pw-123456")
    retried = player.post(CASHOUT, WITHDRAWAL, headers={"Idempotency-Key": f"{login}-during"})
    assert retried.json()["success"] is True, "a call that never reached the platform may be sent again"
    assert withdrawals_on_record(control, login) == (1, Decimal(99000))
