"""The proxy as a player and an operator see it, against a respx-mocked platform."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest
import respx

from gateway.config.timings import parse_timings
from gateway.pipeline.guard import refused_path
from tests.support.browser import AsyncBrowser
from tests.support.gateway import browser_on, gateway_app, signed_in_as

pytestmark = pytest.mark.anyio


async def test_site_and_session_headers_are_the_gateways_own(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    balance = upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"success": True}))
    await visitor.login()
    spoof = {"siteid": "other-site", "wsession": "stolen", "Cookie-Extra": "x", "Connection": "wsession"}
    response = await visitor.post("/api/cashier/balance", headers=spoof)
    assert response.status_code == 200
    sent = balance.calls.last.request
    assert sent.headers["siteid"] == "aurora"
    assert sent.headers["wsession"] == "UPSTREAM-SID-1"
    assert sent.headers["x-xsrf-token"] == "up-token", "the upstream's own XSRF token is echoed"
    assert "XSRF-TOKEN=up-token" in sent.headers["cookie"]
    assert "cookie-extra" not in sent.headers
    assert sent.headers["x-request-id"] == response.headers["x-request-id"]
    assert sent.headers["x-forwarded-for"]


async def test_a_visitor_is_anonymous_upstream(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    providers = upstream.post("/api/agentAccount/getProviders").mock(return_value=httpx.Response(200, json=[]))
    await visitor.post("/api/agentAccount/getProviders", headers={"wsession": "forged"})
    assert "wsession" not in providers.calls.last.request.headers


async def test_login_captures_strips_and_rotates(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    before = visitor.client.cookies.get("bff")
    response = await visitor.login()
    body = response.json()
    assert body["success"] is True
    assert "sessionId" not in body and "sessionId" not in body["loginResponse"]
    assert "UPSTREAM-SID-1" not in response.text
    after = visitor.client.cookies.get("bff")
    assert after and after != before, "a new session id at login (no fixation)"
    assert "set-cookie" not in {k.lower() for k in response.headers if "up-token" in response.headers[k]}
    assert "up-token" not in str(response.headers.get_list("set-cookie"))
    assert signed_in_as((await visitor.get("/bff/session")).json()) == (True, "demo1")


async def test_remember_me_makes_the_cookie_persistent_and_never_reaches_the_platform(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    response = await visitor.login(rememberMe=True)
    sent = json.loads(upstream.routes[0].calls.last.request.content)
    assert sent == {"login": "demo1", "password": "demo123"}
    cookie = next(c for c in response.headers.get_list("set-cookie") if c.startswith("bff="))
    assert "Max-Age=2592000" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")


async def test_without_remember_me_the_cookie_ends_with_the_browser(visitor: AsyncBrowser) -> None:
    response = await visitor.login()
    cookie = next(c for c in response.headers.get_list("set-cookie") if c.startswith("bff="))
    assert "Max-Age" not in cookie and "expires" not in cookie.lower()


async def test_logout_ends_the_session_and_the_old_cookie(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    profile = upstream.post("/api/player/getProfile").mock(return_value=httpx.Response(200, json={"success": True}))
    await visitor.login()
    old_cookie, old_token = visitor.client.cookies.get("bff"), visitor.xsrf()
    assert (await visitor.post("/api/player/logout")).status_code == 200
    assert (await visitor.get("/bff/session")).json()["loggedIn"] is False
    visitor.client.cookies.set("bff", old_cookie or "")
    answer = await visitor.client.post("/api/player/getProfile", json={}, headers=old_token)
    assert answer.json()["code"] == "SESSION_EXPIRED"
    assert profile.call_count == 0, "an ended session reaches nothing upstream"


async def test_session_expired_from_the_platform_clears_the_session(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    upstream.post("/api/cashier/balance").mock(
        return_value=httpx.Response(200, json={"success": False, "code": "SESSION_EXPIRED", "description": "x"})
    )
    await visitor.login()
    answer = await visitor.post("/api/cashier/balance")
    assert answer.json()["code"] == "SESSION_EXPIRED"
    assert (await visitor.get("/bff/session")).json()["loggedIn"] is False


@pytest.mark.parametrize(
    "headers",
    [{}, {"X-XSRF-TOKEN": "wrong"}, {"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}],
)
async def test_forged_unsafe_calls_are_refused_before_the_platform(
    visitor: AsyncBrowser, upstream: respx.Router, headers: dict[str, str]
) -> None:
    target = upstream.post("/api/player/getCountries").mock(return_value=httpx.Response(200, json={}))
    base = {} if "X-XSRF-TOKEN" in headers or not headers else visitor.xsrf()
    response = await visitor.client.post("/api/player/getCountries", json={}, headers={**base, **headers})
    assert response.status_code == 403
    assert set(response.json()) == {"message", "code", "requestId"}
    assert target.call_count == 0


async def test_a_token_from_another_session_is_refused(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    target = upstream.post("/api/player/getCountries").mock(return_value=httpx.Response(200, json={}))
    stolen = visitor.xsrf()
    visitor.client.cookies.clear()
    await visitor.start()
    response = await visitor.client.post("/api/player/getCountries", json={}, headers=stolen)
    assert response.status_code == 403 and target.call_count == 0


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/player/deleteEverything", 404),
        ("/api/player/%2e%2e/cashier/balance", 400),
        ("/api/player%2fgetProfile", 400),
        ("/api/player%5cgetProfile", 400),
        ("/api//player/getProfile", 400),
        ("/rest/http://evil.example/x", 400),
        ("/api/player/login\\..\\x", 400),
    ],
)
async def test_paths_outside_the_catalogue_never_reach_the_platform(
    visitor: AsyncBrowser, upstream: respx.Router, path: str, status: int
) -> None:
    response = await visitor.client.post(path, content=b"{}", headers=visitor.xsrf())
    assert response.status_code == status, response.text
    assert response.json()["code"] in {"NOT_FOUND", "BAD_PATH"}
    assert all(route.call_count == 0 for route in upstream.routes)


async def test_a_compressed_request_body_is_refused_not_forwarded_without_its_encoding(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    """Found from outside: a gzip body was forwarded still compressed, its Content-Encoding dropped."""
    import gzip

    body = gzip.compress(json.dumps({"login": "demo1", "password": "demo123"}).encode())
    headers = {**visitor.xsrf(), "content-type": "application/json", "content-encoding": "gzip"}
    response = await visitor.client.post("/api/player/login", content=body, headers=headers)
    assert response.status_code == 415 and response.json()["code"] == "UNSUPPORTED_ENCODING"
    assert all(route.call_count == 0 for route in upstream.routes)


async def test_session_paths_are_filled_by_the_gateway(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    ezugi = upstream.get("/rest/ezugi/session/UPSTREAM-SID-1").mock(
        return_value=httpx.Response(200, json={"success": True, "EZUGI_TOKEN": "t"})
    )
    await visitor.login()
    response = await visitor.get("/rest/ezugi/session")
    assert response.status_code == 200 and ezugi.call_count == 1


async def test_fifty_identical_reads_make_one_upstream_call(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.2)
        return httpx.Response(200, json={"success": True, "values": []})

    balance = upstream.post("/api/cashier/balance").mock(side_effect=slow)
    await visitor.login()
    answers = await asyncio.gather(*(visitor.post("/api/cashier/balance") for _ in range(50)))
    assert {a.status_code for a in answers} == {200}
    assert balance.call_count == 1
    assert len({a.headers["x-request-id"] for a in answers}) == 50, "each waiter has its own answer"


async def test_a_duplicate_withdrawal_is_sent_once_and_both_get_its_answer(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.2)
        return httpx.Response(200, json={"success": True, "cashoutId": "CO-1"})

    cashout = upstream.post("/api/cashier/cashout12").mock(side_effect=slow)
    await visitor.login()
    body = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "a@b"}
    first, second = await asyncio.gather(
        visitor.post("/api/cashier/cashout12", body), visitor.post("/api/cashier/cashout12", body)
    )
    assert cashout.call_count == 1
    assert first.json() == second.json() == {"success": True, "cashoutId": "CO-1"}


async def test_a_different_exclusive_call_in_flight_is_a_conflict(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.2)
        return httpx.Response(200, json={"success": True})

    cashout = upstream.post("/api/cashier/cashout12").mock(side_effect=slow)
    await visitor.login()
    first, second = await asyncio.gather(
        visitor.post("/api/cashier/cashout12", {"amount": 1000}),
        visitor.post("/api/cashier/cashout12", {"amount": 2000}),
    )
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    conflict = first if first.status_code == 409 else second
    assert conflict.json()["message"] == "request already in progress"
    assert cashout.call_count == 1


async def test_reads_of_different_sessions_are_never_joined(upstream: respx.Router) -> None:
    seen: list[str] = []

    async def per_player(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["wsession"])
        await asyncio.sleep(0.1)
        return httpx.Response(200, json={"success": True, "login": request.headers["wsession"]})

    upstream.post("/api/player/getProfile").mock(side_effect=per_player)
    logins = iter(["SID-A", "SID-B"])
    upstream.post("/api/player/login").mock(
        side_effect=lambda request: httpx.Response(200, json={"success": True, "sessionId": next(logins)})
    )
    app = gateway_app(upstream)
    async with browser_on(app) as a, browser_on(app) as b:
        for who in (a, b):
            await who.start()
            await who.login()
        answer_a, answer_b = await asyncio.gather(a.post("/api/player/getProfile"), b.post("/api/player/getProfile"))
    assert sorted(seen) == ["SID-A", "SID-B"]
    assert answer_a.json()["login"] == "SID-A" and answer_b.json()["login"] == "SID-B"


async def test_upstream_statuses_and_bodies_pass_through(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.get("/capi/home-banners").mock(
        return_value=httpx.Response(418, json={"data": [], "teapot": True}, headers={"x-internal": "secret"})
    )
    response = await visitor.get("/capi/home-banners")
    assert response.status_code == 418 and response.json() == {"data": [], "teapot": True}
    assert "x-internal" not in response.headers


async def test_unreachable_and_slow_upstreams_have_one_error_shape(upstream: respx.Router) -> None:
    upstream.get("/capi/lobby-slot-images").mock(side_effect=httpx.ReadTimeout("slow"))
    async with browser_on(gateway_app(upstream, timings=parse_timings("content=0.2/0.2/0.5"))) as visitor:
        async with visitor.refusing():
            unreachable = await visitor.get("/capi/home-banners")
        slow = await visitor.get("/capi/lobby-slot-images")
    assert (unreachable.status_code, unreachable.json()["code"]) == (502, "UPSTREAM_UNREACHABLE")
    assert (slow.status_code, slow.json()["code"]) == (504, "UPSTREAM_TIMEOUT")
    for answer in (unreachable, slow):
        assert set(answer.json()) == {"message", "code", "requestId"}
        assert answer.json()["requestId"] == answer.headers["x-request-id"]


async def test_content_calls_carry_no_session(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    banners = upstream.get("/capi/home-banners").mock(return_value=httpx.Response(200, json={"data": []}))
    await visitor.login()
    await visitor.get("/capi/home-banners", params={"filters[locale][$eq]": "es"})
    sent = banners.calls.last.request
    assert "wsession" not in sent.headers and "cookie" not in sent.headers
    assert sent.url.params["filters[locale][$eq]"] == "es"


@pytest.mark.parametrize(
    "raw", ["/api/player/../cashier/balance", "/api/player/./getProfile", "/api/..", "/api/%2E%2E/x", "/api/\u00e9"]
)
def test_dot_segments_and_odd_bytes_are_refused(raw: str) -> None:
    assert refused_path(raw)


def test_ordinary_paths_pass() -> None:
    assert not refused_path("/api/player/getProfile")
    assert not refused_path("/capi/games-lists")
    assert not refused_path("/rest/pp/ppToken/vs20olympgate")


@pytest.mark.parametrize(
    ("platform", "status", "code"),
    [
        (500, 502, "UPSTREAM_ERROR"),
        (502, 502, "UPSTREAM_ERROR"),
        (503, 503, "UPSTREAM_UNAVAILABLE"),
        (504, 504, "UPSTREAM_TIMEOUT"),
    ],
)
async def test_the_platforms_own_server_errors_reach_the_browser_as_the_common_error_json(
    visitor: AsyncBrowser, upstream: respx.Router, platform: int, status: int, code: str
) -> None:
    """Found by the fault suite: a platform 500 went out as the gateway's own 500, body and all."""
    upstream.post("/api/cashier/balance").mock(
        return_value=httpx.Response(platform, text="<h1>Internal Server Error</h1><pre>Traceback ...</pre>")
    )
    await visitor.login()
    answer = await visitor.post("/api/cashier/balance")
    assert answer.status_code == status and answer.json()["code"] == code and answer.json()["requestId"]
    assert "Traceback" not in answer.text


PNG = b"\x89PNG\r\n\x1a\n"


async def test_an_upload_over_the_limit_is_refused_whether_declared_or_not(upstream: respx.Router) -> None:
    """The proxied path reads bodies itself (no Litestar request): the upload limit still holds."""
    uploads = upstream.post("/api/player/uploadFile").mock(return_value=httpx.Response(200, json={"success": True}))
    async with browser_on(gateway_app(upstream, max_upload_body=1000)) as browser:
        await browser.start()
        await browser.login()
        files = {"file": ("id.png", PNG + b"\0" * 5000, "image/png")}
        declared = await browser.client.post("/api/player/uploadFile", files=files, headers=browser.xsrf())
        assert declared.status_code == 413 and declared.json()["code"] == "TOO_LARGE"

        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(10):
                yield b"x" * 500

        headers = {**browser.xsrf(), "content-type": "multipart/form-data; boundary=b"}
        streamed = await browser.client.post("/api/player/uploadFile", content=chunks(), headers=headers)
        assert streamed.status_code == 413 and streamed.json()["code"] == "TOO_LARGE"
        small = {"file": ("id.png", PNG, "image/png")}
        assert (await browser.client.post("/api/player/uploadFile", files=small, headers=browser.xsrf())).is_success
    assert uploads.call_count <= 2, "the declared one never reached the platform"


async def test_a_player_gone_mid_body_is_logged_499_and_nothing_is_sent(
    upstream: respx.Router, capsys: pytest.CaptureFixture[str]
) -> None:
    app = gateway_app(upstream)
    async with browser_on(app) as browser:
        await browser.start()
        cookie = "; ".join(f"{k}={v}" for k, v in browser.client.cookies.items())
    messages = [{"type": "http.request", "body": b'{"a":', "more_body": True}, {"type": "http.disconnect"}]
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return messages.pop(0)

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    headers = [
        (b"host", b"testserver.local"),
        (b"cookie", cookie.encode()),
        (b"content-type", b"application/json"),
        (b"x-xsrf-token", (browser.xsrf()["X-XSRF-TOKEN"]).encode()),
    ]
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/player/login",
        "raw_path": b"/api/player/login",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 4000),
        "scheme": "http",
    }
    await app(scope, receive, send)
    assert sent == [] and not [c for c in upstream.calls if c.request.url.path == "/api/player/login"]
    out = capsys.readouterr().out.splitlines()
    lines = [json.loads(line) for line in out if '"path":"/api/player/login"' in line]
    assert lines[-1]["status"] == 499
