"""/bff/pay: a deposit's payment page, reached without the session id ever in a browser URL."""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from tests.support.browser import AsyncBrowser

pytestmark = pytest.mark.anyio


def platform_says(upstream: respx.Router, redirect_url: str) -> respx.Route:
    return upstream.post("/api/cashier/paymentRedirect").mock(
        return_value=httpx.Response(200, json={"success": True, "redirectUrl": redirect_url, "seque_no": "SEQ1"})
    )


async def test_the_player_is_sent_to_the_platforms_payment_page(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    route = platform_says(upstream, f"{visitor.platform}/_sandbox/pay/SEQ1?amount=500")
    await visitor.login()
    answer = await visitor.client.get("/bff/pay/SEQ1?payMethod=phone_pe", headers={"sec-fetch-site": "same-origin"})
    assert answer.status_code == 302
    assert answer.headers["location"] == f"{visitor.platform}/_sandbox/pay/SEQ1?amount=500"
    assert answer.headers["cache-control"] == "no-store"
    sent = route.calls.last.request
    assert json.loads(sent.content) == {"seque_no": "SEQ1", "payMethod": "phone_pe"}
    assert sent.headers["wsession"] == "UPSTREAM-SID-1", "the gateway adds the session, the browser never has it"
    assert "UPSTREAM-SID-1" not in answer.headers["location"]


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/pay", "{payment_host}@evil.example/", "javascript:alert(1)", "//evil.example/x"],
)
async def test_only_the_skins_payment_hosts_are_redirected_to(
    visitor: AsyncBrowser, upstream: respx.Router, target: str
) -> None:
    platform_says(upstream, target.format(payment_host=visitor.platform))
    await visitor.login()
    answer = await visitor.client.get("/bff/pay/SEQ1")
    assert answer.status_code == 502 and "location" not in answer.headers


async def test_a_visitor_or_a_cross_site_page_gets_no_payment_call(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    route = platform_says(upstream, f"{visitor.platform}/_sandbox/pay/SEQ1")
    assert (await visitor.client.get("/bff/pay/SEQ1")).status_code == 401
    await visitor.login()
    cross = await visitor.client.get("/bff/pay/SEQ1", headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    for bad in ("/bff/pay/SEQ1%2F..%2Fx", "/bff/pay/SEQ1?payMethod=a%26b%3Dc"):
        assert (await visitor.client.get(bad)).status_code in (400, 404), bad
    assert route.call_count == 0


@pytest.mark.parametrize(
    ("platform", "status"),
    [
        (httpx.Response(200, json={"success": False, "description": "No such deposit"}), 404),
        (httpx.Response(404, json={"success": False}), 404),
        (httpx.Response(503, text="maintenance"), 502),
    ],
)
async def test_a_deposit_the_platform_refuses_is_not_found_and_a_failing_platform_is_a_bad_gateway(
    visitor: AsyncBrowser, upstream: respx.Router, platform: httpx.Response, status: int
) -> None:
    """Found by the fuzzing suite: any unknown deposit reference answered 502, as if the
    platform had failed."""
    upstream.post("/api/cashier/paymentRedirect").mock(return_value=platform)
    await visitor.login()
    answer = await visitor.client.get("/bff/pay/NOSUCH")
    assert answer.status_code == status and "location" not in answer.headers
    assert answer.headers["content-type"].startswith("text/html")
