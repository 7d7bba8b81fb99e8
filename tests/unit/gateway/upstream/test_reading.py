"""Every reader of a platform answer behind a platform that compresses (gzip, HTTP's deflate, raw
deflate), and what a platform that breaks its answers gets: one decoding path, a clear error for
that call, and nothing else broken.

Found behind Debian's nginx with `gzip on`: the payment window stayed on /bff/pay with a 404 and the
balance stream never carried a value, because those readers met the platform's gzip as it came."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from typing import Any

import httpx
import pytest
import respx

from contracts.catalogue import BALANCE, ROUTES, ROUTES_BY_NAME
from gateway.balance.tabs import PlayerFeed
from gateway.http.asgi import Incoming, RequestContext
from gateway.upstream.call import passes_through
from tests.support.browser import AsyncBrowser
from tests.support.encodings import Raw
from tests.support.gateway import browser_on, gateway_app
from tests.support.platform import CARD_DEPOSIT

pytestmark = pytest.mark.anyio
NOWHERE = Incoming({"type": "http", "headers": [], "query_string": b"", "path": "/", "method": "POST"}, None)
"""A request for the gateway's own calls (the stream's poll asks with the tab's request)."""
WALLETS = {
    "success": True,
    "values": [
        {
            "wallet": {"id": 1, "name": "INR"},
            "symbol": "₹",
            "preferred": True,
            "cash": {"value": 1234.5},
            "bonus": {"value": 0},
            "cashInPlay": {"value": 0},
        }
    ],
}


def squeezed(data: Any, coding: str) -> bytes:
    raw = json.dumps(data).encode()
    if coding == "gzip":
        return gzip.compress(raw)
    wrapped = coding == "deflate"
    squeezer = zlib.compressobj(6, zlib.DEFLATED, 15 if wrapped else -15)
    return squeezer.compress(raw) + squeezer.flush()


def compressed(data: Any, coding: str, step: int = 7) -> httpx.Response:
    """`data` as a compressing platform sends it: in small pieces, as a trickling answer would."""
    sent = "deflate" if coding == "raw-deflate" else coding
    headers = {"content-encoding": sent, "content-type": "application/json", "vary": "accept-encoding"}
    return httpx.Response(200, stream=Raw(squeezed(data, coding), step), headers=headers)


CODINGS = ["gzip", "deflate", "raw-deflate"]


@pytest.mark.parametrize("coding", CODINGS)
async def test_login_payment_and_adoption_read_a_compressed_platform(upstream: respx.Router, coding: str) -> None:
    login = {"success": True, "sessionId": "UPSTREAM-SID-9", "loginResponse": {"login": "demo1"}}
    upstream.post("/api/player/login").mock(return_value=compressed(login, coding))
    upstream.post("/api/player/getProfile").mock(return_value=compressed({"success": True, "login": "demo1"}, coding))
    app = gateway_app(upstream)
    async with browser_on(app) as player, browser_on(app) as handed:
        pay = {"success": True, "redirectUrl": f"{player.platform}/_sandbox/pay/SEQ1", "seque_no": "SEQ1"}
        upstream.post("/api/cashier/paymentRedirect").mock(return_value=compressed(pay, coding))
        await player.start()
        answer = await player.login()
        assert answer.status_code == 200 and "sessionId" not in answer.text and answer.json()["success"] is True
        assert (await player.client.get("/bff/session")).json()["loggedIn"] is True, "the session was captured"
        window = await player.client.get("/bff/pay/SEQ1?payMethod=upi")
        assert window.status_code == 302 and window.headers["location"] == pay["redirectUrl"]
        await handed.start()
        adopted = await handed.post("/bff/session/adopt", {"sid": "UPSTREAM-SID-9"})
        assert adopted.json() == {"loggedIn": True, "login": "demo1"}


@pytest.mark.parametrize("coding", CODINGS)
async def test_the_balance_stream_reads_a_compressed_balance(upstream: respx.Router, coding: str) -> None:
    """What a proxied read tells the stream, and what the stream's own poll asks, is the balance."""
    upstream.post("/api/cashier/balance").mock(side_effect=lambda _: compressed(WALLETS, coding))
    app = gateway_app(upstream)
    feed = app.gateway.feed
    assert feed is not None
    watched = feed.players[("aurora", "demo1")] = PlayerFeed("aurora", "demo1")  # a tab is open
    async with browser_on(app) as player:
        await player.start()
        await player.login()
        read = await player.post("/api/cashier/balance")
        assert read.json()["values"][0]["cash"]["value"] == 1234.5
        await asyncio.sleep(0.05)  # the store is told in the background
        told = await feed.bus.current(watched)
        assert told is not None and json.loads(told[1])["values"] == WALLETS["values"], "the tabs get the balance"
        skin = app.gateway.config.skins.all[0]
        session = await app.gateway.sessions.load(skin.id, player.client.cookies["bff"])
        polled = await feed.platform.ask(NOWHERE, RequestContext("r1"), skin, BALANCE, session, b"{}")
    assert json.loads(polled.body) == WALLETS, "the poll reads the balance itself"


async def test_only_routes_nothing_reads_pass_the_platforms_gzip_through() -> None:
    read_by_gateway = {route.name for route in ROUTES if route.gateway_reads}
    assert {"balance", "getProfile", "paymentRedirect", "login", "register", "buy", "cashout"} <= read_by_gateway
    assert not [r.name for r in ROUTES if r.gateway_reads and passes_through(r)]
    assert passes_through(ROUTES_BY_NAME["getOpenWithdrawRequests"])


async def test_a_bff_call_to_a_route_the_catalogue_does_not_say_it_reads_is_refused(upstream: respx.Router) -> None:
    app = gateway_app(upstream)
    assert app.gateway.feed is not None
    skin, withdrawals = app.gateway.config.skins.all[0], ROUTES_BY_NAME["getOpenWithdrawRequests"]
    session = await app.gateway.sessions.load(skin.id, None)
    with pytest.raises(ValueError, match="gateway_reads"):
        await app.gateway.feed.platform.ask(NOWHERE, RequestContext("r1"), skin, withdrawals, session, b"{}")


HOSTILE = {
    "an HTML page where JSON was expected": (200, b"<html><body><h1>Welcome to nginx!</h1></body></html>", "text/html"),
    "a challenge page without a type": (200, b"<!DOCTYPE html><title>Just a moment...</title>", None),
    "gzip bytes it does not say are gzip": (200, gzip.compress(json.dumps(WALLETS).encode()), "application/json"),
    "a field the product reads, mistyped": (200, b'{"success":true,"values":[{"wallet":"INR"}]}', "application/json"),
    "JSON cut short": (200, b'{"success":true,"values":[{"wal', "application/json"),
    "a 404 page of a base URL that is not the platform": (404, b"<html>404 Not Found</html>", "text/html"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
async def test_an_answer_that_breaks_the_contract_is_a_502_for_that_call_only(
    visitor: AsyncBrowser, upstream: respx.Router, case: str
) -> None:
    status, body, kind = HOSTILE[case]
    headers = {"content-type": kind} if kind else {}
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(status, content=body, headers=headers))
    upstream.post("/api/player/getStats").mock(return_value=httpx.Response(200, json={"success": True}))
    await visitor.login()
    broken = await visitor.post("/api/cashier/balance")
    assert broken.status_code == 502 and broken.json()["code"] == "UPSTREAM_CONTRACT", case
    assert broken.headers["content-type"] == "application/json" and b"<html" not in broken.content
    assert (await visitor.post("/api/player/getStats")).status_code == 200, "the other calls go on"
    assert (await visitor.client.get("/bff/session")).json()["loggedIn"] is True, "the player stays signed in"


async def test_contract_breaches_are_counted_per_route_and_logged_with_what_broke(
    upstream: respx.Router, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"values": [{"wallet": 7}]}))
    app = gateway_app(upstream)
    async with browser_on(app) as player:
        await player.start()
        await player.login()
        for _ in range(3):
            assert (await player.post("/api/cashier/balance")).status_code == 502
    counted = app.gateway.metrics.contract_breaches.labels("aurora", "balance")._value.get()
    assert counted == 3
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if "contract_breach" in line]
    assert lines and lines[0]["route"] == "balance" and "$.values[0].wallet" in lines[0]["why"]


async def test_a_money_call_whose_answer_breaks_the_contract_says_to_check_before_retrying(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    upstream.post("/api/cashier/buy").mock(return_value=httpx.Response(200, content=b"<html>ok</html>"))
    await visitor.login()
    answer = await visitor.post("/api/cashier/buy", CARD_DEPOSIT, headers={"Idempotency-Key": "deposit-broken-0001"})
    assert answer.status_code == 502 and answer.json()["code"] == "UPSTREAM_FAILED"
    assert "check" in answer.json()["message"]


async def test_unknown_fields_are_ignored_and_reach_the_browser(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    extra = {**WALLETS, "serverTime": 1, "values": [{**WALLETS["values"][0], "_lb": {"node": "b2"}}]}
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json=extra))
    await visitor.login()
    answer = await visitor.post("/api/cashier/balance")
    assert answer.status_code == 200 and answer.json() == extra


async def test_a_balancers_sticky_cookie_is_kept_per_session_and_follows_its_changes(upstream: respx.Router) -> None:
    """A load balancer pins each player session to a backend with its cookie, and may move it
    (a backend drained): each session sends back its own, the newest, and never the browser."""
    sticky = iter(["AWSALB=node-a; Path=/", "AWSALB=node-b; Path=/", "AWSALB=node-c; Path=/"])
    sent: list[tuple[str | None, str]] = []

    def login(request: httpx.Request) -> httpx.Response:
        sid = f"UPSTREAM-SID-{len(sent)}"
        sent.append((request.headers.get("cookie"), "login"))
        body = {"success": True, "sessionId": sid}
        return httpx.Response(200, json=body, headers={"set-cookie": next(sticky)})

    def balance(request: httpx.Request) -> httpx.Response:
        sent.append((request.headers.get("cookie"), request.headers["wsession"]))
        moved = {"set-cookie": next(sticky)} if len(sent) == 3 else {}
        return httpx.Response(200, json=WALLETS, headers=moved)

    upstream.post("/api/player/login").mock(side_effect=login)
    upstream.post("/api/cashier/balance").mock(side_effect=balance)
    app = gateway_app(upstream)
    async with browser_on(app) as one, browser_on(app) as two:
        for player in (one, two):
            await player.start()
            await player.login()
        reads = [await one.post("/api/cashier/balance") for _ in range(2)] + [await two.post("/api/cashier/balance")]
    assert [r.status_code for r in reads] == [200, 200, 200]
    assert sent[2:] == [
        ("AWSALB=node-a", "UPSTREAM-SID-0"),
        ("AWSALB=node-c", "UPSTREAM-SID-0"),
        ("AWSALB=node-b", "UPSTREAM-SID-1"),
    ]
    assert all("AWSALB" not in str(r.headers) for r in reads), "the balancer's cookie never reaches the browser"
