"""The gateway in front of the sandbox over real HTTP: what a player's browser and an
operator's curl would see."""

from __future__ import annotations

import concurrent.futures
import json
from pathlib import Path

import httpx

from tests.support.browser import Browser
from tests.support.fixtures import upstream_calls
from tests.support.gateway import signed_in_as
from tests.support.stack import Stack


def test_a_curl_session_logs_in_and_reads_a_balance(player: Browser) -> None:
    body = player.login()
    assert "sessionId" not in body and "sessionId" not in str(body)
    balance = player.post("/api/cashier/balance").json()
    assert balance["success"] is True
    main = next(v for v in balance["values"] if v["wallet"]["name"] == "INR")
    assert main["cash"]["value"] == 5000.0
    assert signed_in_as(player.http.get("/bff/session").json()) == (True, "demo1")


def test_the_browser_never_sees_platform_cookies_or_session_ids(player: Browser, stack: Stack) -> None:
    answer = player.post("/api/player/login", {"login": "demo1", "password": "demo123"})
    cookies = " ".join(answer.headers.get_list("set-cookie"))
    names = {c.split("=", 1)[0].strip() for c in answer.headers.get_list("set-cookie")}
    assert names <= {"bff", "XSRF-TOKEN", "bff-device"}, "only the gateway's own cookies"
    profile = player.post("/api/player/getProfile").json()
    assert profile["login"] == "demo1"
    assert "HttpOnly" in next(c for c in answer.headers.get_list("set-cookie") if c.startswith("bff="))
    assert "XSRF-TOKEN=" in cookies and "SameSite=Lax" in cookies.replace("lax", "Lax")


def test_a_wrong_password_is_the_platforms_answer(player: Browser) -> None:
    answer = player.post("/api/player/login", {"login": "demo1", "password": "wrong12"})
    assert answer.status_code == 200
    assert answer.json()["description"] == "Invalid Login or Password"
    assert player.http.get("/bff/session").json()["loggedIn"] is False


def test_forced_expiry_ends_the_gateway_session_too(player: Browser, control: httpx.Client) -> None:
    player.login()
    control.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "demo1"})
    assert player.post("/api/cashier/balance").json()["code"] == "SESSION_EXPIRED"
    assert player.http.get("/bff/session").json()["loggedIn"] is False


def test_fifty_concurrent_identical_reads_reach_the_platform_once(player: Browser, control: httpx.Client) -> None:
    player.login()
    # The platform's answer takes long enough for all fifty to be asked while it is on its way: with
    # 300 ms, a loaded machine's fifty threads were still starting when the first answer came back.
    control.put("/_sandbox/faults/balance", json={"latencyMs": 1500})
    control.delete("/_sandbox/calls")
    with concurrent.futures.ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(lambda _: player.post("/api/cashier/balance"), range(50)))
    assert {a.status_code for a in answers} == {200}
    assert upstream_calls(control, "balance") == 1


def test_a_20_mb_document_upload_streams_through(player: Browser, control: httpx.Client, upload_file: Path) -> None:
    player.login()
    with upload_file.open("rb") as f:
        answer = player.http.post(
            "/api/player/uploadFile",
            files={"file": ("id-proof.png", f, "image/png")},
            data={"docType": "1", "docNumber": "AB123"},
            headers=player.xsrf(),
        )
    assert answer.status_code == 200, answer.text
    assert answer.json()["success"] is True
    documents = player.post("/api/player/getDocuments").json()["documents"]
    assert any(d["docType"] == "Id Proof" for d in documents)


def test_game_launch_paths_get_the_session_from_the_gateway(player: Browser) -> None:
    player.login()
    launch = player.http.get("/rest/ezugi/session")
    assert launch.status_code == 200 and launch.json()["success"] is True
    assert launch.json()["EZUGI_GAME_URL"]


def test_an_unknown_route_and_a_down_platform(player: Browser, stack: Stack, control: httpx.Client) -> None:
    assert player.post("/api/player/nothingHere").status_code == 404
    control.put("/_sandbox/faults/homeBanners", json={"errorRate": 1.0, "errorStatus": 503})
    assert player.http.get("/capi/home-banners").status_code == 503, "platform statuses pass through"


def test_no_secret_reaches_the_logs(player: Browser, stack: Stack, control: httpx.Client) -> None:
    player.login()
    player.post("/api/cashier/balance")
    player.http.get("/rest/ezugi/session")
    player.http.get("/rest/habanero/session/hb-egyptian-dreams")
    player.post("/api/player/updatePassword", {"oldPassword": "demo123", "newPassword": "demo1234"})
    player.post("/api/player/updatePassword", {"oldPassword": "demo1234", "newPassword": "demo123"})
    platform_sessions = control.get("/_sandbox/sites/aurora/players/demo1").json()["sessionIds"]
    assert platform_sessions
    logs = stack.logs()
    assert any(json.loads(line).get("route") == "ezugiLaunch" for line in logs.splitlines() if line.startswith("{"))
    secrets = ["demo123", "demo1234", player.http.cookies.get("bff"), player.xsrf()["X-XSRF-TOKEN"], *platform_sessions]
    for secret in secrets:
        assert secret and secret not in logs
