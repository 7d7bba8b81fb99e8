"""`python -m gateway check-upstream` and the check behind it (gateway/config/conformity.py): it
passes on the sandbox, and fails, naming the call and the reason, on an nginx default page, on the
gateway's own address, and on a platform whose answer lacks a field the product reads."""

from __future__ import annotations

import asyncio
import gzip
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import respx
import uvicorn

from contracts.catalogue import CHECKS
from gateway.app import create_app
from gateway.config.conformity import conformity
from sandbox.app import SandboxSettings
from sandbox.app import create_app as create_sandbox
from tests.support.default_page import nginx_default_page
from tests.support.gateway import test_settings as gateway_settings
from tests.support.respx_platform import RespxPlatform
from tests.support.stack import ROOT, free_port

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def serving(app: Any) -> AsyncIterator[str]:
    """`app` on a real socket in this event loop (uvicorn), at the URL yielded."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", log_config=None))
    task = asyncio.ensure_future(server.serve())
    while not server.started:  # uvicorn.Server offers a flag, not an event
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@pytest.fixture
async def sandbox() -> AsyncIterator[str]:
    async with serving(create_sandbox(SandboxSettings())) as url:
        yield url


@pytest.fixture
def nginx_default(tmp_path: Path) -> Iterator[str]:
    with nginx_default_page(tmp_path) as url:
        yield url


async def test_the_sandbox_speaks_the_platform_on_every_upstream(sandbox: str) -> None:
    for upstream, routes in CHECKS.items():
        result = await conformity(sandbox, upstream, "aurora")
        assert result.ok, result.summary
        assert [call.name for call in result.calls] == [route.name for route in routes]
        assert all(call.status == 200 and call.why is None for call in result.calls)
    capi = await conformity(sandbox, "capi", "aurora")
    assert capi.summary == "speaks the platform: 9/9 documented calls valid"


async def test_a_site_id_the_platform_does_not_know_fails_every_call(sandbox: str) -> None:
    result = await conformity(sandbox, "sbapi", "nosuch-site")
    assert not result.ok and result.valid == 0 and result.calls[0].why == "HTTP 400 (application/json)"


async def test_an_nginx_default_page_is_not_the_platform(nginx_default: str) -> None:
    capi = await conformity(nginx_default, "capi", "aurora")
    assert not capi.ok and capi.valid == 0
    assert capi.summary == (
        "does not speak the platform: 0/9 documented calls valid; homeBanners: answered text/html, not JSON"
    )
    api = await conformity(nginx_default, "api", "aurora")
    assert api.calls[0].name == "getCountries" and api.calls[0].why == "HTTP 405 (text/html)", "a POST to a page"


async def test_the_gateways_own_address_is_not_the_platform(tmp_path: Path) -> None:
    skins = tmp_path / "skins.toml"
    nowhere = f"http://127.0.0.1:{free_port()}"
    skins.write_text(
        '[[skins]]\nid = "aurora"\nsite_id = "aurora"\nname = "Aurora"\nhosts = ["127.0.0.1"]\ncurrency = "INR"\n'
        f'[skins.upstreams]\napi = "{nowhere}"\ncapi = "{nowhere}"\nsbapi = "{nowhere}"\nrest = "{nowhere}"\n'
    )
    app = create_app(gateway_settings(skins_file=skins, probe_upstreams=False))
    async with serving(app) as gateway:
        through = await conformity(gateway, "capi", "aurora")  # its skin's content, through to nowhere
        other = await conformity(gateway.replace("127.0.0.1", "localhost"), "capi", "aurora")  # no skin
    assert not through.ok and through.calls[0].why == "HTTP 502 (application/json)"
    assert not other.ok and other.calls[0].why == "HTTP 404 (application/json)"


def events(selection: dict[str, Any]) -> dict[str, Any]:
    market: dict[str, Any] = {
        "_id": "m",
        "marketType": {"_id": "ML0"},
        "startDate": "2026-12-02T09:00:00Z",
        "homeTeam": "A",
    }
    market |= {"awayTeam": "B", "selections": [selection]}
    event = {"_id": "e", "leagueName": "NBA", "sportName": "Basketball", "startEventDate": "2026-12-02T09:00:00Z"}
    return {"totalCount": 1, "events": [{**event, "markets": [market]}]}


@asynccontextmanager
async def platform(events_answer: httpx.Response) -> AsyncIterator[str]:
    """A sportsbook whose sports list keeps its contract (gzipped, as a real one sends it) and
    whose events answer as the test says."""
    router = respx.Router(base_url="http://sbapi.test", assert_all_called=False)
    sports = msgspec.json.encode({"sports": [{"_id": "Soccer", "name": "Fútbol", "eventCount": 8}]})
    router.get("/sbapi/sports/sports").mock(
        return_value=httpx.Response(
            200, content=gzip.compress(sports), headers={"content-type": "application/json", "content-encoding": "gzip"}
        )
    )
    router.get("/sbapi/sports/events").mock(return_value=events_answer)
    async with RespxPlatform(router) as served:
        yield served.url


async def test_an_answer_missing_a_field_the_product_reads_is_named() -> None:
    odds_missing = {"_id": "s", "outcomeType": "Home", "name": "A"}
    async with platform(httpx.Response(200, json=events(odds_missing))) as url:
        result = await conformity(url, "sbapi", "aurora")
    assert (result.valid, result.total) == (1, 2)
    failed = result.calls[0]
    assert failed.name == "sportsEvents" and failed.status == 200 and failed.path == "/sbapi/sports/events?lang=es"
    assert failed.why == "Object missing required field `trueOdds` - at `$.events[0].markets[0].selections[0]`"
    assert result.summary.endswith(f"sportsEvents: {failed.why}")


@asynccontextmanager
async def lying_about_gzip(answer: bytes) -> AsyncIterator[str]:
    """A server that says its JSON is gzipped and sends it plain (respx would decode it first)."""

    async def reply(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        head = b"content-type: application/json\r\ncontent-encoding: gzip\r\nconnection: close\r\n"
        writer.write(b"HTTP/1.1 200 OK\r\n" + head + b"content-length: %d\r\n\r\n" % len(answer) + answer)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(reply, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()


async def test_an_encoding_claimed_must_decode() -> None:
    selection = {"_id": "s", "outcomeType": "Home", "name": "A", "trueOdds": 1.5}
    async with lying_about_gzip(msgspec.json.encode(events(selection))) as url:
        result = await conformity(url, "sbapi", "aurora")
    assert [call.why for call in result.calls] == ["claims content-encoding gzip but does not decode"] * 2


async def test_an_address_that_does_not_answer_fails_within_its_time() -> None:
    started = time.monotonic()
    result = await conformity(f"http://127.0.0.1:{free_port()}", "capi", "aurora", within_s=1)
    assert not result.ok and all(call.status is None and call.why for call in result.calls)
    assert time.monotonic() - started < 3, "the calls are made at once, each within its time"


# --- the command ---------------------------------------------------------------------


def command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "SKINS_FILE"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "gateway", "check-upstream", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_command_passes_on_the_sandbox_and_fails_on_a_default_page(nginx_default: str, tmp_path: Path) -> None:
    sandbox = subprocess.Popen([sys.executable, "-m", "sandbox", "--port", str(port := free_port())], cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/sbapi/sports/sports", headers={"siteid": "aurora"}, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and sandbox.poll() is None
                time.sleep(0.1)
        passed = command(url, "--skin", "aurora", "--upstream", "capi")
        assert passed.returncode == 0, passed.stdout + passed.stderr
        lines = passed.stdout.splitlines()
        assert lines[0] == f"capi at {url}, site id aurora (skin aurora of the built-in skins)"
        assert lines[1].split()[:2] == ["ok", "homeBanners"] and len(lines) == 11
        assert lines[-1] == "speaks the platform: 9/9 documented calls valid"
        skins = tmp_path / "skins.toml"
        skins.write_text(
            '[[skins]]\nid = "casa"\nsite_id = "pampa"\nname = "Casa"\nhosts = ["casa.test"]\ncurrency = "ARS"\n'
            f'[skins.upstreams]\napi = "{url}"\ncapi = "{url}"\nsbapi = "{url}"\nrest = "{url}"\n'
        )
        piped = command(url, "--skin", "casa", "--upstream", "api", "--json", env={"SKINS_FILE": str(skins)})
        assert piped.returncode == 0 and msgspec.json.decode(piped.stdout)["valid"] == 5, "the file's site id"
    finally:
        sandbox.terminate()
        sandbox.wait(10)
    failed = command(nginx_default, "--skin", "aurora", "--upstream", "sbapi")
    assert failed.returncode == 1
    assert "  FAILED  sportsEvents  /sbapi/sports/events?lang=es  answered text/html, not JSON" in failed.stdout
    assert failed.stdout.splitlines()[-1].startswith("does not speak the platform: 0/2 documented calls valid")


def test_usage_errors_exit_2_and_never_echo_credentials() -> None:
    for args in (
        ["http://ops:hunter2@capi.example", "--skin", "aurora", "--upstream", "capi"],
        ["ftp://capi.example", "--skin", "aurora", "--upstream", "capi"],
        ["http://capi.example", "--skin", "aurora", "--upstream", "wallet"],
        ["http://capi.example", "--upstream", "capi"],
    ):
        answer = command(*args)
        assert answer.returncode == 2, (args, answer.stdout, answer.stderr)
        assert "hunter2" not in answer.stdout + answer.stderr
