"""The gateway's own endpoints and the SPA it serves."""

from __future__ import annotations

import gzip
from pathlib import Path

import httpx
import pytest
import respx

from gateway.store.address import SharedRedis
from tests.support.browser import AsyncBrowser
from tests.support.gateway import browser_on, gateway_app, signed_in_as
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio


async def test_config_gives_the_spa_the_public_skin(visitor: AsyncBrowser) -> None:
    config = (await visitor.get("/bff/config")).json()
    assert config["skin"]["name"] == "Aurora Casino"
    assert config["skin"]["currencySymbol"] == "Bs."
    assert set(config["skin"]["branding"]) >= {"logo", "primary", "accent", "operatorLine"}


async def test_the_openapi_document_covers_the_bff_and_the_catalogue(visitor: AsyncBrowser) -> None:
    """Found by the fuzz suite after the handlers began answering with `Outgoing`: Litestar tried
    to model it as a dataclass and the document itself answered 500."""
    document = await visitor.get("/bff/openapi.json")
    assert document.status_code == 200, document.text
    paths = document.json()["paths"]
    assert {"/bff/session", "/bff/config", "/api/cashier/balance", "/capi/home-banners"} <= set(paths)
    assert (await visitor.get("/bff/schema/openapi.json")).status_code == 200


async def test_session_hands_out_cookies(upstream: respx.Router) -> None:
    async with browser_on(gateway_app(upstream)) as visitor:
        first = await visitor.get("/bff/session")
        assert signed_in_as(first.json()) == (False, None)
        cookies = first.headers.get_list("set-cookie")
        session_cookie = next(c for c in cookies if c.startswith("bff="))
        assert "HttpOnly" in session_cookie and "SameSite=lax" in session_cookie.replace("Lax", "lax")
        xsrf = next(c for c in cookies if c.startswith("XSRF-TOKEN="))
        assert "HttpOnly" not in xsrf
        again = await visitor.get("/bff/session")
        assert again.headers.get_list("set-cookie") == [], "nothing to renew"


async def test_production_cookies_are_secure_and_host_prefixed(upstream: respx.Router) -> None:
    async with browser_on(gateway_app(upstream, production=True)) as visitor:
        response = await visitor.get("/bff/session")
        cookies = response.headers.get_list("set-cookie")
        assert any(c.startswith("__Host-bff=") and "Secure" in c and "Path=/" in c for c in cookies)
        assert all("Secure" in c for c in cookies)


async def test_unknown_hosts_get_no_skin(upstream: respx.Router) -> None:
    async with browser_on(gateway_app(upstream)) as visitor:
        response = await visitor.client.get("/bff/config", headers={"host": "evil.example"})
        assert response.status_code == 404 and response.json()["code"] == "UNKNOWN_SITE"
        proxied = await visitor.client.get("/capi/home-banners", headers={"host": "evil.example"})
        assert proxied.status_code == 404


async def test_a_session_from_a_url_is_adopted_after_the_platform_confirms_it(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    def profile(request: httpx.Request) -> httpx.Response:
        if request.headers.get("wsession") == "GOOD-SID-123":
            return httpx.Response(200, json={"success": True, "login": "demo1"})
        return httpx.Response(200, json={"success": False, "code": "SESSION_EXPIRED"})

    upstream.post("/api/player/getProfile").mock(side_effect=profile)
    refused = await visitor.post("/bff/session/adopt", {"sid": "BAD-SID-123"})
    assert refused.status_code == 401
    adopted = await visitor.post("/bff/session/adopt", {"sid": "GOOD-SID-123"})
    assert adopted.json() == {"loggedIn": True, "login": "demo1"}
    assert "GOOD-SID-123" not in str(adopted.headers)


async def test_health_and_readiness(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    assert (await visitor.get("/bff/health")).json() == {"status": "ok"}
    upstream.get("/").mock(return_value=httpx.Response(404))
    ready = await visitor.get("/bff/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    upstream.get("/").mock(side_effect=httpx.ConnectError("down"))
    degraded = await visitor.get("/bff/ready")
    assert degraded.status_code == 503 and degraded.json()["status"] == "degraded"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "index-abc123.js").write_text("console.log('hi')")
    (tmp_path / "assets" / "index-abc123.js.gz").write_bytes(gzip.compress(b"console.log('hi')"))
    (tmp_path / "index.html").write_text("<!doctype html><title>casino</title>")
    (tmp_path / "favicon.svg").write_text("<svg/>")
    (tmp_path / "lobby").mkdir()
    (tmp_path / "lobby" / "lobbyflash.html").write_text("<!doctype html><title>poker lobby</title>")
    (tmp_path / "secret.html").write_text("not public")
    return tmp_path


async def test_the_spa_is_served_with_its_headers(upstream: respx.Router, dist: Path) -> None:
    async with browser_on(gateway_app(upstream, spa_dist=dist)) as visitor:
        page = await visitor.get("/profile")
        assert page.status_code == 200 and "<title>casino</title>" in page.text
        assert page.headers["cache-control"] == "no-cache"
        csp = page.headers["content-security-policy"]
        assert "frame-ancestors 'self'" in csp and f"frame-src 'self' {visitor.platform}" in csp
        assert f"form-action 'self' {visitor.platform};" in csp, "forms post to the site and its payment hosts only"
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"]
        asset = await visitor.get("/assets/index-abc123.js", headers={"accept-encoding": "gzip"})
        assert "immutable" in asset.headers["cache-control"]
        assert asset.headers["content-encoding"] == "gzip" and asset.text == "console.log('hi')"
        assert asset.headers["content-type"].startswith("text/javascript")
        plain = await visitor.get("/assets/index-abc123.js", headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.text == "console.log('hi')"
        assert plain.headers["vary"] == "accept-encoding"
        for missing in ("/assets/nothing.js", "/assets/index-abc123.js.gz", "/assets/..%2findex.html"):
            assert (await visitor.get(missing)).status_code == 404, missing
        assert (await visitor.get("/favicon.svg")).headers["content-type"].startswith("image/svg")
        assert (await visitor.get("/bff/nothing")).status_code == 404
        assert "access-control-allow-origin" not in page.headers


async def test_page_views_are_counted_per_skin(upstream: respx.Router, dist: Path) -> None:
    app = gateway_app(upstream, spa_dist=dist)
    async with browser_on(app) as visitor:
        await visitor.client.get("/home")
    samples = {
        s.labels.get("skin"): s.value
        for m in app.gateway.metrics.registry.collect()
        if m.name == "bff_requests"
        for s in m.samples
        if s.name == "bff_requests_total" and s.labels.get("route_class") == "spa"
    }
    assert samples.get("aurora") == 1.0, samples


async def test_the_static_lobby_pages_are_served_and_nothing_outside_them(upstream: respx.Router, dist: Path) -> None:
    async with browser_on(gateway_app(upstream, spa_dist=dist)) as visitor:
        lobby = await visitor.get("/lobby/lobbyflash.html")
        assert lobby.headers["content-type"].startswith("text/html") and "poker lobby" in lobby.text
        assert "content-security-policy" in lobby.headers
        # anything else falls back to the app's document, never to a file of the build folder
        for path in ("/lobby/../secret.html", "/lobby/%2e%2e/secret.html", "/other/secret.html"):
            answer = await visitor.get(path)
            assert "not public" not in answer.text, path


async def test_with_the_store_down_the_bff_routes_answer_503_not_500(upstream: respx.Router) -> None:
    """Found by the fault suite: /bff/session answered 500 while Redis was away."""
    away = SharedRedis(url=f"redis://127.0.0.1:{free_port()}/0")
    async with browser_on(gateway_app(upstream, shared_redis=away)) as visitor:
        visitor.client.cookies.set("bff", "S" * 43)  # a returning player's session, which lives in the store
        for answer in (
            await visitor.client.get("/bff/session"),
            await visitor.client.post("/bff/session/adopt", json={"sid": "A" * 32}),
        ):
            assert answer.status_code == 503 and answer.json()["code"] == "STORE_UNAVAILABLE", answer.text
            assert answer.headers["retry-after"] == "1"
