"""Forged requests and stolen or stale sessions, tried against the running product."""

from __future__ import annotations

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.fixtures import upstream_calls
from tests.support.stack import Stack

BALANCE = "/api/cashier/balance"


@pytest.fixture
def victim(stack: Stack, control: httpx.Client, secrets: set[str]) -> Browser:
    player = Browser(stack.url, client_ip="203.0.113.10")
    player.login()
    secrets.add(player.cookie)
    return player


def test_unsafe_calls_without_the_right_xsrf_token_are_refused_before_the_platform(
    stack: Stack, control: httpx.Client, victim: Browser, secrets: set[str]
) -> None:
    other = Browser(stack.url, client_ip="203.0.113.11")
    foreign_token = other.http.cookies.get("XSRF-TOKEN") or ""
    secrets.add(foreign_token)
    same = {"origin": stack.url, "sec-fetch-site": "same-origin"}
    token = victim.xsrf()["X-XSRF-TOKEN"]
    before = upstream_calls(control)
    attempts = {
        "no token": {},
        "empty token": {"x-xsrf-token": ""},
        "a wrong token": {"x-xsrf-token": token[:-2] + ("AA" if not token.endswith("AA") else "BB")},
        "another session's token": {"x-xsrf-token": foreign_token},
        "the session cookie as token": {"x-xsrf-token": victim.cookie},
        "a cross-site Origin": {"x-xsrf-token": token, "origin": "https://evil.example"},
        "a null Origin": {"x-xsrf-token": token, "origin": "null"},
        "Sec-Fetch-Site cross-site": {"x-xsrf-token": token, "sec-fetch-site": "cross-site"},
        "Sec-Fetch-Site same-site": {"x-xsrf-token": token, "sec-fetch-site": "same-site"},
    }
    for name, headers in attempts.items():
        for path in (BALANCE, "/api/cashier/buy", "/api/player/updateProfile"):
            answer = victim.http.post(
                path, json={"amount": 100}, headers={**same, **headers} if "origin" not in headers else headers
            )
            assert answer.status_code == 403, f"{name} on {path}: {answer.status_code}"
            assert answer.json()["code"] in ("XSRF", "CROSS_SITE") and answer.json()["requestId"], name
    assert upstream_calls(control) == before, "nothing forged reached the platform"
    honest = victim.post(BALANCE)
    assert honest.status_code == 200 and honest.json()["success"] is True


def test_logging_in_issues_a_new_session_cookie(stack: Stack, control: httpx.Client, secrets: set[str]) -> None:
    player = Browser(stack.url, client_ip="203.0.113.12")
    planted = player.cookie
    player.login()
    assert player.cookie != planted, "a cookie planted before login must not become the player's session"
    secrets.add(player.cookie)
    fixer = httpx.Client(base_url=stack.url, cookies={"bff": planted}, headers={"x-forwarded-for": "203.0.113.13"})
    with fixer:
        assert fixer.get("/bff/session").json()["loggedIn"] is False
        fixer.get("/bff/session")
        token = fixer.cookies.get("XSRF-TOKEN") or ""
        assert fixer.post(BALANCE, json={}, headers={"x-xsrf-token": token}).json().get("success") is not True


def test_cookies_are_httponly_and_same_site(stack: Stack, control: httpx.Client) -> None:
    answer = httpx.get(stack.url + "/bff/session")
    cookies = {c.split("=", 1)[0]: c.lower() for c in answer.headers.get_list("set-cookie")}
    assert "httponly" in cookies["bff"] and ("samesite=lax" in cookies["bff"] or "samesite=strict" in cookies["bff"])
    assert "samesite" in cookies["XSRF-TOKEN"], "the token cookie is readable by the page but stays on the site"


def test_production_cookies_are_secure_and_host_prefixed(production: Stack) -> None:
    answer = httpx.get(production.url + "/bff/session")
    cookies = {c.split("=", 1)[0]: c.lower() for c in answer.headers.get_list("set-cookie")}
    assert "__Host-bff" in cookies and "bff" not in cookies, cookies
    for name, cookie in cookies.items():
        assert "secure" in cookie and "path=/" in cookie and "domain=" not in cookie, name
    assert "httponly" in cookies["__Host-bff"]


def test_after_logout_the_old_cookie_is_worthless(stack: Stack, control: httpx.Client, victim: Browser) -> None:
    stolen = dict(victim.http.cookies.items())
    assert victim.post("/api/player/logout").status_code == 200
    assert control.get("/_sandbox/sites/aurora/players/demo1").json()["sessions"] == 0, "the platform session ended"
    thief = httpx.Client(base_url=stack.url, cookies=stolen, headers={"x-forwarded-for": "203.0.113.14"})
    with thief:
        assert thief.get("/bff/session").json()["loggedIn"] is False
        thief.get("/bff/session")
        before = upstream_calls(control)
        replay = thief.post(BALANCE, json={}, headers={"x-xsrf-token": thief.cookies.get("XSRF-TOKEN") or ""})
        # The platform's own answer to a dead session (HTTP 200, docs/platform.md), without asking it.
        assert replay.json()["success"] is False and replay.json()["code"] == "SESSION_EXPIRED"
        assert "cash" not in replay.text and upstream_calls(control) == before


def test_an_expired_platform_session_ends_the_gateway_session(
    stack: Stack, control: httpx.Client, victim: Browser
) -> None:
    stolen = dict(victim.http.cookies.items())
    control.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "demo1"})
    expired = victim.post(BALANCE)
    assert expired.json()["success"] is False and expired.json()["code"] == "SESSION_EXPIRED"
    assert victim.get("/bff/session").json()["loggedIn"] is False
    with httpx.Client(base_url=stack.url, cookies=stolen) as thief:
        assert thief.get("/bff/session").json()["loggedIn"] is False
