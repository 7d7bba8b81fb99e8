"""Many players at once through one gateway with dedup on: nobody sees anybody else."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import httpx

from tests.support.stack import Stack
from tests.support.visitor import Player

PLAYERS = 50
ROUNDS = 6


def cash_of(balance: dict[str, object]) -> Decimal:
    wallets = balance["values"]
    assert isinstance(wallets, list)
    return Decimal(str(next(w["cash"]["value"] for w in wallets if w["wallet"]["name"] == "INR")))


def test_fifty_players_polling_at_once_each_see_only_their_own(
    stack: Stack, sandbox: httpx.Client, secrets: set[str]
) -> None:
    accounts = [(f"leak{n:02d}", f"pw-{n:02d}-s3cr3t", Decimal(1000 + n)) for n in range(PLAYERS)]
    for login, password, cash in accounts:
        created = sandbox.post(
            "/_sandbox/sites/aurora/players", json={"login": login, "password": password, "cash": str(cash)}
        )
        assert created.status_code == 201, created.text
        secrets.add(password)

    def log_in(n: int) -> Player:
        login, password, _ = accounts[n]
        player = Player(stack.url, client_ip=f"10.20.{n}.1")
        player.login(login, password)
        return player

    with ThreadPoolExecutor(PLAYERS) as pool:
        players = list(pool.map(log_in, range(PLAYERS)))
    cookies = {player.cookie for player in players}
    assert len(cookies) == PLAYERS, "every player has a session of their own"
    secrets.update(cookies)
    for login, _, _ in accounts:
        secrets.update(sandbox.get(f"/_sandbox/sites/aurora/players/{login}").json()["sessionIds"])

    start = threading.Barrier(PLAYERS)
    problems: list[str] = []

    def poll(n: int) -> None:
        login, _, cash = accounts[n]
        player = players[n]
        start.wait()
        for _ in range(ROUNDS):
            balance = player.post("/api/cashier/balance")
            profile = player.post("/api/player/getProfile")
            if cash_of(balance.json()) != cash:
                problems.append(f"{login} saw a balance of {cash_of(balance.json())}")
            if profile.json().get("login", "").lower() != login:
                problems.append(f"{login} saw the profile of {profile.json().get('login')}")
            for answer in (balance, profile):
                for header in answer.headers.get_list("set-cookie"):
                    value = header.split(";", 1)[0].split("=", 1)[-1]
                    if value in cookies and value != player.cookie:
                        problems.append(f"{login} was handed another player's session cookie")

    with ThreadPoolExecutor(PLAYERS) as pool:
        list(pool.map(poll, range(PLAYERS)))
    assert not problems, problems[:10]
