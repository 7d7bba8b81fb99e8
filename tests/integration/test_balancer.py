"""The gateway in front of a platform behind nginx and a load balancer (the sandbox's wire,
sandbox/served.py): kept-alive connections the platform closes idle just as calls go out cost the
player nothing; each player session keeps its balancer cookie; the balancer's HTML error pages
reach the browser as the gateway's error JSON; answers that trickle and unknown fields in them
change nothing for the player."""

from __future__ import annotations

import time

import httpx

from tests.support.browser import Browser
from tests.support.gateway import signed_in_as
from tests.support.stack import Stack

DEPOSIT = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}
READS = ("/api/cashier/balance", "/api/player/getProfile", "/api/player/getPlayerLevels")


def misses(control: httpx.Client) -> int:
    return int(control.get("/_sandbox/wire/counts").json()["stickyMisses"])


def fresh_connections(control: httpx.Client, player: Browser, idle_s: float) -> None:
    """The gateway's connections to the platform opened anew, with the platform's idle timeout
    `idle_s` theirs (uvicorn's applies to connections opened after it changed)."""
    control.put("/_sandbox/wire", json={"keepaliveTimeoutS": idle_s, "keepaliveRequests": 1})
    player.post("/api/cashier/balance")  # its connection closed after the answer
    control.put("/_sandbox/wire", json={"keepaliveRequests": 100})


def test_reads_on_connections_closed_idle_as_they_go_out_are_sent_again(player: Browser, control: httpx.Client) -> None:
    idle_s = 0.3
    player.login()
    fresh_connections(control, player, idle_s)
    for n in range(12):
        time.sleep(idle_s * (0.9 + n % 4 * 0.05))  # around the moment the platform closes them
        answer = player.post("/api/cashier/balance").json()
        assert answer.get("success") is True, (n, answer)


def test_a_money_call_never_goes_on_a_connection_the_platform_may_be_closing(
    player: Browser, control: httpx.Client
) -> None:
    """Money calls are never sent again, so they go only on connections used within the gateway's
    reuse window (1 s): behind a platform that closes idle ones just after it (1.1 s), each
    deposit goes through, once."""
    player.login()
    fresh_connections(control, player, 1.1)
    before = len(control.get("/_sandbox/sites/aurora/players/demo1").json()["deposits"])
    for n in range(3):
        player.post("/api/cashier/balance")
        time.sleep(1.05)  # in the gateway's pool, idle past its window; the platform about to close it
        answer = player.post("/api/cashier/buy", DEPOSIT, headers={"Idempotency-Key": f"idle-deposit-{n}"})
        assert answer.json().get("success") is True, answer.text
    assert len(control.get("/_sandbox/sites/aurora/players/demo1").json()["deposits"]) == before + 3


def test_every_player_session_keeps_its_balancer_cookie(stack: Stack, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"sticky": True})
    for n in range(4):  # round robin over the backends: two players land on each
        control.post("/_sandbox/sites/aurora/players", json={"login": f"sticky{n}", "password": "secret123"})
    players = [Browser(stack.url) for _ in range(4)]
    try:
        for n, player in enumerate(players):
            player.get("/bff/session")
            player.login(f"sticky{n}", "secret123")
        for _ in range(3):
            for player in players:
                for path in READS:
                    answer = player.post(path).json()
                    assert answer.get("code") != "SESSION_EXPIRED", (path, answer)
        assert all(p.http.get("/bff/session").json()["loggedIn"] for p in players)
        assert misses(control) == 0, "every call went to the backend that holds its session"
        assert "AWSALB" not in " ".join(players[0].http.cookies.keys()), "the browser never sees it"
    finally:
        for player in players:
            player.close()


def test_a_balancers_html_error_page_reaches_the_browser_as_the_gateways_error(
    player: Browser, control: httpx.Client
) -> None:
    player.login()
    control.put("/_sandbox/wire", json={"balancerErrors": True})
    control.put("/_sandbox/faults/balance", json={"errorRate": 1.0, "errorStatus": 502})
    answer = player.post("/api/cashier/balance")
    assert answer.status_code == 502
    assert answer.headers["content-type"].startswith("application/json")
    assert set(answer.json()) >= {"message", "code", "requestId"}
    assert "<html>" not in answer.text


def test_trickling_answers_with_unknown_fields_change_nothing_for_the_player(
    player: Browser, control: httpx.Client
) -> None:
    control.put("/_sandbox/wire", json={"trickleMs": 2, "extraFields": True})
    player.login()
    balance = player.post("/api/cashier/balance").json()
    main = next(v for v in balance["values"] if v["wallet"]["name"] == "INR")
    assert main["cash"]["value"] == 5000.0
    assert player.post("/api/player/getProfile").json()["login"] == "demo1"
    assert signed_in_as(player.http.get("/bff/session").json()) == (True, "demo1")
