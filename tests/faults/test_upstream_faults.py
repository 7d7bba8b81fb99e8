"""A platform that breaks connections, cuts answers short, trickles or says nothing: the
gateway answers every call with the common error JSON within its deadline, never 500, and
serves again as soon as the platform does."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults import rogue
from tests.faults.rogue import RogueUpstream
from tests.support.browser import Browser
from tests.support.cluster import Process, gateway_process, skins_toml
from tests.support.stack import free_port

DEADLINE_S = 2.0  # UPSTREAM_TIMEOUTS below: connect 0.5 s, read 1 s, deadline 2 s for every class
CALLS = {
    "content": ("GET", "/capi/home-banners"),
    "read": ("POST", "/api/player/getCountries"),
    "exclusive": ("POST", "/api/player/login"),
}


@pytest.fixture(scope="module")
def platform() -> Iterator[RogueUpstream]:
    upstream = RogueUpstream()
    yield upstream
    upstream.stop()


@pytest.fixture(scope="module")
def gateway(platform: RogueUpstream, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    workdir = tmp_path_factory.mktemp("rogue")
    skins = workdir / "skins.toml"
    skins.write_text(skins_toml(platform.url))
    port = free_port()
    env = {
        **os.environ,
        "SKINS_FILE": str(skins),
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "PROBE_UPSTREAMS": "false",
        "UPSTREAM_TIMEOUTS": "content=0.5/1/2,read=0.5/1/2,exclusive=0.5/1/2",
        # Every call must meet the misbehaving platform, so the breaker never opens here
        # (tests/integration/test_operations.py covers the breaker).
        "BREAKER": "failures=100000,rate=1,min_calls=100000,window=10,open=1",
    }
    process = gateway_process(workdir, env, port=port)
    process.start("/bff/health")
    yield process
    process.stop()
    assert '"status":500' not in Path(process.log).read_text(), "the gateway never answered 500"


@pytest.mark.parametrize("behaviour", ["reset", "close", "half", "half_reset", "trickle", "silent", "garbage"])
def test_a_misbehaving_platform_gets_a_fast_honest_answer(
    platform: RogueUpstream, gateway: Process, behaviour: str
) -> None:
    player = Browser(gateway.url, client_ip=f"10.30.0.{len(behaviour)}")
    platform.behaviour = getattr(rogue, behaviour)
    try:
        for route_class, (method, path) in CALLS.items():
            started = time.monotonic()
            if method == "GET":
                answer = player.get(f"{path}?fault={behaviour}")
            else:
                answer = player.post(path, {"login": "someone", "password": "secret-1"})
            took = time.monotonic() - started
            assert answer.status_code in (502, 503, 504), f"{route_class}: {answer.status_code} {answer.text[:200]}"
            assert answer.json()["code"].startswith("UPSTREAM_") and answer.json()["requestId"], route_class
            assert took < DEADLINE_S + 1.0, f"{route_class} took {took:.1f}s, past its deadline"
    finally:
        platform.behaviour = rogue.ok
    assert player.post("/api/player/getCountries").status_code == 200, "serving again at once"
