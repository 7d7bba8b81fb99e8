"""The operators' console page on the admin listener: its views' paths, its hashed assets, its
headers; the API's paths stay the API's; and the public listener serves none of it."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import brotli
import httpx
import pytest
import respx

from gateway.app import admin_app
from tests.support.browser import AsyncBrowser
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio

TOKEN = "console-pages-token"
SCRIPT = b"console.log('operators')" * 20
PAGE = (
    b'<!doctype html><title>Consola de operadores</title><script src="/admin/assets/console-abc123.js"></script>'
    + b"<noscript>La consola necesita JavaScript.</noscript>" * 40  # big enough to be worth compressing
)


@pytest.fixture
def builds(tmp_path: Path) -> tuple[Path, Path]:
    """A player build and a console build side by side, as `make` leaves them."""
    player, console = tmp_path / "dist", tmp_path / "dist-console"
    for dist in (player, console):
        (dist / "assets").mkdir(parents=True)
    (player / "index.html").write_text("<!doctype html><title>casino</title>")
    (player / "assets" / "index-aaa111.js").write_text("player()")
    (console / "index.html").write_bytes(PAGE)
    (console / "assets" / "console-abc123.js").write_bytes(SCRIPT)
    (console / "assets" / "console-abc123.js.gz").write_bytes(gzip.compress(SCRIPT))
    (console / "assets" / "console-abc123.js.br").write_bytes(brotli.compress(SCRIPT))
    return player, console


@pytest.fixture
async def listeners(
    upstream: respx.Router, builds: tuple[Path, Path]
) -> AsyncIterator[tuple[AsyncBrowser, httpx.AsyncClient]]:
    player, console = builds
    upstream.get("/").mock(return_value=httpx.Response(404))  # the status probes each upstream
    app = gateway_app(upstream, admin_token=TOKEN, probe_upstreams=False, spa_dist=player, console_dist=console)
    transport = httpx.ASGITransport(app=admin_app(app), client=("10.0.0.9", 50000))
    async with browser_on(app) as browser, httpx.AsyncClient(transport=transport, base_url="http://admin") as ops:
        yield browser, ops


VIEWS = ["/admin", "/admin/", "/admin/instances", "/admin/history", "/admin/audit", "/admin/x/y"]


@pytest.mark.parametrize("path", VIEWS)
async def test_every_view_of_the_console_is_its_page(
    listeners: tuple[AsyncBrowser, httpx.AsyncClient], path: str
) -> None:
    _, ops = listeners
    answer = await ops.get(path, headers={"accept-encoding": "identity"})
    assert answer.status_code == 200, "the page is public: it asks for a session itself"
    assert answer.content == PAGE
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["cache-control"] == "no-cache"
    csp = answer.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["referrer-policy"] == "no-referrer"


async def test_the_page_and_its_assets_go_compressed_to_browsers_that_accept_it(
    listeners: tuple[AsyncBrowser, httpx.AsyncClient],
) -> None:
    _, ops = listeners
    page = await ops.get("/admin", headers={"accept-encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.content == PAGE  # httpx inflates it
    again = await ops.get("/admin/history", headers={"accept-encoding": "gzip", "if-none-match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b"", "a current copy is revalidated, not sent again"
    assert "script-src 'self'" in again.headers["content-security-policy"]
    asset = await ops.get("/admin/assets/console-abc123.js", headers={"accept-encoding": "gzip, br"})
    assert asset.status_code == 200 and asset.headers["content-encoding"] == "br"
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert asset.headers["content-type"].startswith("text/javascript")
    gzipped = await ops.get("/admin/assets/console-abc123.js", headers={"accept-encoding": "gzip"})
    assert gzipped.headers["content-encoding"] == "gzip" and gzipped.content == SCRIPT
    plain = await ops.get("/admin/assets/console-abc123.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == SCRIPT


NOT_ASSETS = ["/admin/assets/nothing.js", "/admin/assets/console-abc123.js.gz", "/admin/assets/..%2findex.html"]


@pytest.mark.parametrize("path", [*NOT_ASSETS, "/admin/assets"])
async def test_only_the_builds_assets_are_served(listeners: tuple[AsyncBrowser, httpx.AsyncClient], path: str) -> None:
    _, ops = listeners
    answer = await ops.get(path)
    assert answer.status_code == 404
    assert answer.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("path", ["/admin/api", "/admin/api/nothing", "/admin/api/session/x", "/admin/skins/aurora"])
async def test_an_unknown_api_path_is_404_json_never_the_page(
    listeners: tuple[AsyncBrowser, httpx.AsyncClient], path: str
) -> None:
    _, ops = listeners
    answer = await ops.get(path)
    assert answer.status_code == 404
    assert answer.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("path", ["/nothing", "/admin/assets/a%2fb", "/metrics/x"])
async def test_a_path_no_handler_takes_is_404_json(
    listeners: tuple[AsyncBrowser, httpx.AsyncClient], path: str
) -> None:
    _, ops = listeners
    answer = await ops.get(path)  # was a 500: the router's 404 met no request context
    assert answer.status_code == 404
    assert answer.json()["code"] == "NOT_FOUND" and answer.json()["requestId"]


async def test_the_api_still_wants_its_credentials(listeners: tuple[AsyncBrowser, httpx.AsyncClient]) -> None:
    _, ops = listeners
    assert (await ops.get("/admin/status")).status_code == 401
    assert (await ops.get("/metrics")).status_code == 401
    assert (await ops.get("/admin/status", headers={"authorization": f"Bearer {TOKEN}"})).status_code == 200


async def test_a_console_that_is_not_built_says_so(upstream: respx.Router, tmp_path: Path) -> None:
    app = gateway_app(upstream, admin_token=TOKEN, probe_upstreams=False, console_dist=tmp_path / "missing")
    transport = httpx.ASGITransport(app=admin_app(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://admin") as ops:
        answer = await ops.get("/admin")
    assert answer.status_code == 503
    assert answer.json()["code"] == "CONSOLE_NOT_BUILT"


@pytest.mark.parametrize(
    "path", ["/admin", "/admin/", "/admin/history", "/admin/assets/console-abc123.js", "/assets/console-abc123.js"]
)
async def test_the_public_listener_serves_nothing_of_the_console(
    listeners: tuple[AsyncBrowser, httpx.AsyncClient], path: str
) -> None:
    browser, _ = listeners
    answer = await browser.get(path, headers={"accept-encoding": "identity"})
    assert answer.content != PAGE and SCRIPT not in answer.content
    assert b"console-abc123" not in answer.content
    if path.startswith("/assets/"):
        assert answer.status_code == 404  # /admin/... is the player site's own "no such page" screen
