"""The sandbox is served as a real platform is (sandbox/served.py): its answers compressed when
asked, a load balancer's ways by switch. In process here; over a real socket (chunks, closed
connections, trickling) in test_served_wire.py."""

from __future__ import annotations

import argparse
import gzip
import zlib
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from sandbox.cli import wire_arguments, wire_of
from sandbox.state import Wire
from tests.support.platform import PlatformClient

AURORA = {"siteid": "aurora"}


def raw(sandbox: TestClient[Any], path: str, encoding: str, **headers: str) -> tuple[Any, bytes]:
    """The answer as it left the sandbox (its head, and its body not decoded)."""
    with sandbox.stream("POST", path, headers={**AURORA, "accept-encoding": encoding, **headers}) as answer:
        return answer, b"".join(answer.iter_raw())


def test_json_answers_are_gzipped_when_asked(platform: PlatformClient) -> None:
    platform.prime()
    answer, body = raw(platform.client, "/api/player/getCountries", "gzip", **platform.headers())
    assert answer.headers["content-encoding"] == "gzip"
    assert "content-length" not in answer.headers, "compressed answers go chunked"
    assert "accept-encoding" in answer.headers["vary"].lower()
    assert msgspec.json.decode(gzip.decompress(body)) == platform.post("/api/player/getCountries").json()


@pytest.mark.parametrize("asked", ["deflate", "gzip;q=0.5, deflate", "deflate, br"])
def test_deflate_where_the_request_takes_only_it_or_prefers_it(platform: PlatformClient, asked: str) -> None:
    platform.prime()
    answer, body = raw(platform.client, "/api/player/getCountries", asked, **platform.headers())
    assert answer.headers["content-encoding"] == "deflate"
    assert msgspec.json.decode(zlib.decompress(body))["success"] is True, "HTTP's deflate is zlib-wrapped"


@pytest.mark.parametrize("asked", ["identity", "br", "gzip;q=0, deflate;q=0"])
def test_answers_go_plain_when_no_coding_it_has_is_asked(platform: PlatformClient, asked: str) -> None:
    platform.prime()
    answer, body = raw(platform.client, "/api/player/getCountries", asked, **platform.headers())
    assert "content-encoding" not in answer.headers
    assert int(answer.headers["content-length"]) == len(body)
    assert msgspec.json.decode(body)["success"] is True


def test_small_answers_and_images_are_not_compressed(platform: PlatformClient) -> None:
    platform.prime()
    small, body = raw(platform.client, "/api/cashier/balance", "gzip", **platform.headers())
    assert msgspec.json.decode(body)["code"] == "SESSION_EXPIRED" and len(body) < 256
    assert "content-encoding" not in small.headers
    captcha, picture = raw(platform.client, "/api/player/generateCaptcha", "gzip", **platform.headers())
    assert captcha.headers["content-type"].startswith("image/svg+xml") and picture.startswith(b"<svg")
    assert "content-encoding" not in captcha.headers


def test_control_calls_are_served_plain(sandbox: TestClient[Any]) -> None:
    with sandbox.stream("GET", "/_sandbox/schema/openapi.json", headers={"accept-encoding": "gzip"}) as answer:
        assert "content-encoding" not in answer.headers


def test_error_statuses_come_as_a_balancers_html_pages_by_switch(player: PlatformClient) -> None:
    control = player.client
    control.put("/_sandbox/faults/balance", json={"errorRate": 1.0, "errorStatus": 502})
    assert player.post("/api/cashier/balance").headers["content-type"].startswith("application/json")
    assert control.put("/_sandbox/wire", json={"balancerErrors": True}).json()["balancerErrors"] is True
    for status, title in [(502, "502 Bad Gateway"), (503, "503 Service Temporarily Unavailable")]:
        control.put("/_sandbox/faults/balance", json={"errorRate": 1.0, "errorStatus": status})
        page = player.post("/api/cashier/balance")
        assert page.status_code == status
        assert page.headers["content-type"].startswith("text/html")
        assert f"<title>{title}</title>" in page.text
    control.put("/_sandbox/faults/balance", json={"errorRate": 1.0, "errorStatus": 500})
    assert player.post("/api/cashier/balance").json()["code"] == "INJECTED_FAULT", "a 500 is the platform's own"


def test_unknown_fields_at_every_level_by_switch(player: PlatformClient) -> None:
    before = player.post("/api/cashier/balance").json()
    player.client.put("/_sandbox/wire", json={"extraFields": True})
    after = player.post("/api/cashier/balance").json()
    assert after["_lb"] and after["serverTime"] > 0
    wallet = after["values"][0]
    assert wallet["_lb"] and wallet["cash"]["_lb"], "inside arrays and nested objects too"
    assert wallet["cash"]["value"] == before["values"][0]["cash"]["value"]


def test_a_sticky_cookie_sends_a_session_to_its_backend(platform: PlatformClient) -> None:
    control = platform.client
    control.put("/_sandbox/wire", json={"sticky": True})
    platform.prime()
    platform.client.cookies.delete("AWSALB")
    login = platform.post("/api/player/login", {"login": "demo1", "password": "demo123"})
    backend = login.cookies.get("AWSALB")
    assert backend, "a call without the balancer's cookie is given one"
    platform.session = login.json()["sessionId"]
    balance = platform.post("/api/cashier/balance")
    assert balance.json()["success"] is True and "AWSALB" not in balance.cookies, "kept: not given again"
    assert control.get("/_sandbox/wire/counts").json()["stickyMisses"] == 0
    platform.client.cookies.delete("AWSALB")
    elsewhere = platform.post("/api/cashier/balance")
    assert elsewhere.json()["code"] == "SESSION_EXPIRED", "another backend has never heard of the session"
    assert control.get("/_sandbox/wire/counts").json()["stickyMisses"] == 1
    platform.client.cookies.delete("AWSALB")  # the other backend's, given with the miss
    platform.client.cookies.set("AWSALB", backend)
    assert platform.post("/api/cashier/balance").json()["success"] is True, "its own backend still has it"


def test_without_the_switch_any_backend_knows_the_session(player: PlatformClient) -> None:
    player.client.cookies.set("AWSALB", "somewhere-else")
    answer = player.post("/api/cashier/balance")
    assert answer.json()["success"] is True and "AWSALB" not in answer.cookies


def test_the_wire_is_read_changed_and_reset(sandbox: TestClient[Any]) -> None:
    served = sandbox.get("/_sandbox/wire").json()
    assert served == {
        "compress": True,
        "keepaliveRequests": 100,
        "keepaliveTimeoutS": 5.0,
        "balancerErrors": False,
        "sticky": False,
        "trickleMs": 0,
        "extraFields": False,
    }
    changed = sandbox.put("/_sandbox/wire", json={"sticky": True, "trickleMs": 5, "keepaliveRequests": 3}).json()
    assert changed == {**served, "sticky": True, "trickleMs": 5, "keepaliveRequests": 3}
    assert sandbox.put("/_sandbox/wire", json={"trickleMs": -1}).status_code == 400
    sandbox.delete("/_sandbox/wire")
    assert sandbox.get("/_sandbox/wire").json() == served
    sandbox.put("/_sandbox/wire", json={"compress": False})
    sandbox.post("/_sandbox/reset")
    assert sandbox.get("/_sandbox/wire").json() == served


def test_the_command_line_sets_how_it_is_served() -> None:
    parser = argparse.ArgumentParser()
    wire_arguments(parser.add_argument_group())
    assert wire_of(parser.parse_args([])) == Wire()
    flags = "--plain --sticky --balancer-errors --extra-fields --trickle-ms 7"
    flags += " --keepalive-requests 3 --keepalive-timeout 2"
    assert wire_of(parser.parse_args(flags.split())) == Wire(
        compress=False,
        keepalive_requests=3,
        keepalive_timeout_s=2.0,
        balancer_errors=True,
        sticky=True,
        trickle_ms=7,
        extra_fields=True,
    )
