"""Requests no browser sends: spoofed identity headers, smuggling, injection, odd paths,
oversized and slow clients, other hosts. Written on raw sockets where a client library
would tidy them up. Each case also checks that nothing reached the platform when nothing should."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import RedisServer, require_redis_server
from tests.support.fixtures import upstream_calls
from tests.support.rawhttp import raw, request
from tests.support.stack import ROOT, Stack, free_port

BALANCE = "/api/cashier/balance"
LOGIN = "/api/player/login"
UNTRUSTED = "127.0.0.2"  # a loopback address outside TRUSTED_PROXIES: a client on the internet


def host(stack: Stack) -> str:
    return stack.url.removeprefix("http://")


def location(head: str) -> str:
    return next((line for line in head.split("\r\n") if line.startswith("location:")), "")


def credentials(player: Browser) -> dict[str, str]:
    """What a logged-in browser sends: its cookies and the XSRF echo."""
    cookie = "; ".join(f"{name}={value}" for name, value in player.http.cookies.items())
    return {"Cookie": cookie, "X-XSRF-TOKEN": player.xsrf()["X-XSRF-TOKEN"], "Content-Type": "application/json"}


@pytest.fixture
def demo(stack: Stack, control: httpx.Client, secrets: set[str]) -> Browser:
    player = Browser(stack.url, client_ip="198.51.100.1")
    player.login()
    secrets.add(player.cookie)
    for sid in control.get("/_sandbox/sites/aurora/players/demo1").json()["sessionIds"]:
        secrets.add(sid)
    return player


# --- spoofing ---------------------------------------------------------------------------------


def test_the_platform_identity_headers_come_only_from_the_gateway(
    stack: Stack, control: httpx.Client, demo: Browser, secrets: set[str]
) -> None:
    victim_sid = control.get("/_sandbox/sites/aurora/players/demo1").json()["sessionIds"][0]
    spoofed = {"wsession": victim_sid, "siteid": "pampa", "sessionId": victim_sid}
    visitor = Browser(stack.url, client_ip="198.51.100.2")
    stolen = visitor.http.post(BALANCE, json={}, headers={**visitor.xsrf(), **spoofed})
    assert stolen.json()["success"] is False and stolen.json()["code"] == "SESSION_EXPIRED"
    in_query = visitor.http.post(f"{BALANCE}?wsession={victim_sid}&siteid=pampa", json={}, headers=visitor.xsrf())
    assert in_query.json().get("success") is not True, "a session id in the query is not a session"

    secrets.add("vip12345")
    vip = Browser(stack.url, client_ip="198.51.100.3")
    vip.login("vip7", "vip12345")
    own = vip.post(BALANCE).json()
    assert vip.http.post(BALANCE, json={}, headers={**vip.xsrf(), **spoofed}).json() == own, "still the vip's own"

    other_site = Browser(stack.url, client_ip="198.51.100.4")
    answer = other_site.http.post(
        LOGIN, json={"login": "pampa1", "password": "pampa123"}, headers={**other_site.xsrf(), "siteid": "pampa"}
    )
    assert answer.json()["success"] is False, "a client's siteid never picks the platform site"


def test_the_skin_comes_from_the_host_alone(stack: Stack) -> None:
    unknown = raw(stack.url, request("GET", "/bff/config", "evil.example"))
    assert unknown.status == 404 and b"UNKNOWN_SITE" in unknown.data
    for headers in (
        {"X-Forwarded-Host": "pampa.localhost"},
        {"X-Original-Host": "pampa.localhost"},
        {"Forwarded": "host=pampa.localhost"},
    ):
        answer = raw(stack.url, request("GET", "/bff/config", host(stack), headers), source=UNTRUSTED)
        assert answer.status == 200 and b'"id":"aurora"' in answer.data, headers
    absolute = raw(stack.url, request("GET", "http://pampa.localhost/bff/config", host(stack)))
    assert absolute.status in (200, 400) and b'"id":"pampa"' not in absolute.data
    twice = raw(
        stack.url,
        b"GET /bff/config HTTP/1.1\r\nHost: "
        + host(stack).encode()
        + b"\r\nHost: pampa.localhost\r\nConnection: close\r\n\r\n",
    )
    assert b'"id":"pampa"' not in twice.data


def test_x_forwarded_for_from_the_internet_does_not_reset_the_login_limit(stack: Stack) -> None:
    probe = Browser(stack.url)
    token, cookie = probe.xsrf()["X-XSRF-TOKEN"], "; ".join(f"{k}={v}" for k, v in probe.http.cookies.items())
    statuses = []
    for n in range(22):
        body = f'{{"login":"nobody{n}","password":"wrong-password"}}'.encode()
        headers = {
            "Cookie": cookie,
            "X-XSRF-TOKEN": token,
            "Content-Type": "application/json",
            "X-Forwarded-For": f"192.0.2.{n}",
            "X-Real-IP": f"192.0.2.{n}",
        }
        statuses.append(raw(stack.url, request("POST", LOGIN, host(stack), headers, body), source=UNTRUSTED).status)
    assert 429 in statuses[20:], statuses


# --- smuggling, hop-by-hop, injection -------------------------------------------------------


def test_conflicting_body_lengths_are_refused_and_nothing_is_smuggled(
    stack: Stack, control: httpx.Client, demo: Browser
) -> None:
    head = f"POST {BALANCE} HTTP/1.1\r\nHost: {host(stack)}\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in credentials(demo).items()
    )
    smuggled = f"GET /api/player/getProfile HTTP/1.1\r\nHost: {host(stack)}\r\n\r\n"
    before = upstream_calls(control)
    attacks = {
        "CL.TE": head + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
        "TE.CL": head + "Transfer-Encoding: chunked\r\nContent-Length: 60\r\n\r\n0\r\n\r\n" + smuggled,
        "two lengths": head + "Content-Length: 2\r\nContent-Length: 70\r\n\r\n{}" + smuggled,
        "obfuscated TE": head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\n" + smuggled,
        "TE with a space": head + "Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + smuggled,
    }
    for name, attack in attacks.items():
        answer = raw(stack.url, attack.encode(), timeout=5)
        assert answer.statuses == [400], f"{name}: {answer.statuses}"
    assert upstream_calls(control) == before


def test_a_compressed_body_is_refused_never_forwarded_without_its_encoding(
    stack: Stack, control: httpx.Client, demo: Browser
) -> None:
    """Seen from outside: a gzip body was forwarded still compressed, its Content-Encoding dropped."""
    import gzip

    before = upstream_calls(control)
    for encoding in ("gzip", "deflate", "br", "gzip, identity"):
        answer = demo.http.post(
            "/api/cashier/cashout12",
            content=gzip.compress(b'{"amount": 1000}'),
            headers={**credentials(demo), "Content-Encoding": encoding},
        )
        assert answer.status_code == 415 and answer.json()["code"] == "UNSUPPORTED_ENCODING", encoding
    assert upstream_calls(control) == before
    assert demo.http.post(BALANCE, json={}, headers={**demo.xsrf(), "Content-Encoding": "identity"}).status_code == 200


def test_connection_header_cannot_strip_what_the_gateway_adds(
    stack: Stack, control: httpx.Client, demo: Browser
) -> None:
    hop = {"Connection": "keep-alive, wsession, siteid, cookie, x-xsrf-token, x-request-id"}
    answer = demo.http.post(BALANCE, json={}, headers={**demo.xsrf(), **hop})
    assert answer.status_code == 200 and answer.json()["success"] is True, "the session and site still went along"
    assert answer.json() == demo.post(BALANCE).json()


def test_header_injection_with_cr_lf_goes_nowhere(stack: Stack, control: httpx.Client) -> None:
    bare_cr = raw(
        stack.url, f"GET /bff/config HTTP/1.1\r\nHost: {host(stack)}\r\nX-A: a\rSet-Cookie: pwn=1\r\n\r\n".encode()
    )
    assert bare_cr.status == 400 and "pwn" not in bare_cr.head
    for target in (
        "/capi/home-banners?x=%0d%0aSet-Cookie:%20pwn=1",
        "/capi/home-banners%0d%0aSet-Cookie:pwn=1",
        "/bff/pay/A%0d%0aLocation:%20https://evil.example",
    ):
        answer = raw(stack.url, request("GET", target, host(stack)))
        assert answer.status != 500 and "pwn" not in answer.head and "evil.example" not in answer.head, target


def test_oversized_heads_and_bodies_are_refused(stack: Stack, demo: Browser) -> None:
    big_head = raw(stack.url, request("GET", "/bff/config", host(stack), {"X-Filler": "a" * 64 * 1024}))
    assert big_head.status == 431
    long_url = raw(stack.url, request("GET", "/capi/home-banners?q=" + "a" * 64 * 1024, host(stack)))
    assert long_url.status == 431
    huge = b'{"login":"' + b"a" * (2 * 1024 * 1024) + b'"}'
    answer = demo.http.post("/api/player/updateProfile", content=huge, headers=credentials(demo))
    assert answer.status_code == 413 and answer.json()["code"] == "TOO_LARGE"
    chunks = (b"a" * 65536 for _ in range(40))  # 2.5 MB with no Content-Length
    chunked = demo.http.post("/api/player/updateProfile", content=chunks, headers=credentials(demo))
    assert chunked.status_code == 413


def test_slow_clients_are_cut_off(stack: Stack, demo: Browser) -> None:
    """The security stack runs with HEADER_TIMEOUT_S=2 and BODY_IDLE_TIMEOUT_S=2."""
    trickle = raw(stack.url, f"GET /bff/config HTTP/1.1\r\nHost: {host(stack)}\r\n".encode(), timeout=10)
    assert trickle.status == 408 and trickle.seconds < 5
    silent = raw(stack.url, b"", timeout=10)
    assert not silent.timed_out and silent.seconds < 5
    head = f"POST {BALANCE} HTTP/1.1\r\nHost: {host(stack)}\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in credentials(demo).items()
    )
    stalled = raw(stack.url, (head + "Content-Length: 100\r\n\r\n{").encode(), timeout=10)
    assert stalled.status == 408 and stalled.seconds < 5
    assert demo.post(BALANCE).json()["success"] is True, "the gateway serves on"


# --- paths --------------------------------------------------------------------------------------

PATH_TRICKS = [
    "/api/player/../cashier/balance",
    "/api/player/%2e%2e/cashier/balance",
    "/api/player/%2E%2E%2Fcashier/balance",
    "/api/cashier%2fbalance",
    "/api/cashier%5cbalance",
    "/api/cashier\\balance",
    "/api//cashier/balance",
    "//api/cashier/balance",
    "/api/cashier/balance/",
    "/api/cashier/balance/.",
    "/api/cashier/balance%00",
    "/api/cashier/balance;wsession=x",
    "/api/cashier/balance%3fwsession=x",
    "/api/cashier/balance%23x",
    "/api/cashier/ba%E2%84%93ance",  # U+2113, NFKC-folds to "l"
    "/api/%EF%BC%8E%EF%BC%8E/api/cashier/balance",  # fullwidth dots
    "/API/cashier/balance",
    "/api/cashier/balance/../../_sandbox/reset",
    "/_sandbox/reset",
    "/api/../_sandbox/reset",
    "/rest/ezugi/session/..%2f..%2f_sandbox%2freset",
    "/capi/uploads/..%2f..%2f_sandbox%2fcalls",
    "/capi/uploads/%2e%2e/%2e%2e/_sandbox/calls",
    "/capi/uploads/x%2f..%2f..%2fhome-banners",
    "http://127.0.0.1/_sandbox/reset",
]


def test_odd_paths_are_refused_without_calling_the_platform(stack: Stack, control: httpx.Client, demo: Browser) -> None:
    control.delete("/_sandbox/calls")
    before = upstream_calls(control)
    for path in PATH_TRICKS:
        for method in ("POST", "GET"):
            answer = raw(
                stack.url, request(method, path, host(stack), credentials(demo), b"{}" if method == "POST" else b"")
            )
            # A GET outside the API prefixes is a client route: the SPA's page (its own 404).
            spa_page = method == "GET" and answer.status == 200 and "content-type: text/html" in answer.head
            assert answer.status in (400, 404, 405) or spa_page, f"{method} {path}: {answer.status}"
    assert upstream_calls(control) == before, "not one odd path reached the platform"
    assert demo.post(BALANCE).json()["success"] is True, "and the platform was not reset"


# --- other hosts and redirects ------------------------------------------------------------------


@pytest.fixture
def elsewhere() -> Iterator[tuple[str, list[bytes]]]:
    """A host the gateway must never call: it records every connection it gets."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    seen: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    seen.append(conn.recv(4096))
                except OSError:
                    seen.append(b"")

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{listener.getsockname()[1]}", seen
    stop.set()
    thread.join()
    listener.close()


def test_no_request_makes_the_gateway_call_another_host(
    stack: Stack, demo: Browser, elsewhere: tuple[str, list[bytes]]
) -> None:
    evil, seen = elsewhere
    me = credentials(demo)
    tries = [
        request("GET", f"http://{evil}/capi/home-banners", host(stack)),
        request("GET", "/capi/home-banners", evil),
        request("GET", "/capi/home-banners", host(stack), {"X-Forwarded-Host": evil, "Forwarded": f"host={evil}"}),
        request("GET", f"/capi/uploads/http:%2f%2f{evil}%2fx.svg", host(stack)),
        request("GET", f"/capi/uploads/%2f%2f{evil}%2fx.svg", host(stack)),
        request("GET", f"/capi/home-banners?url=http://{evil}/&redirect=//{evil}", host(stack)),
        request("POST", BALANCE, host(stack), {**me, "X-Forwarded-Host": evil}, b"{}"),
        request(
            "POST",
            f"/api/player/mrGameURL?url=http://{evil}/",
            host(stack),
            me,
            f'{{"gameId":"http://{evil}/","url":"http://{evil}/"}}'.encode(),
        ),
        request("POST", "/bff/session/adopt", host(stack), me, f'{{"sid":"http://{evil}/"}}'.encode()),
        request("GET", f"/bff/pay/SEQ1?payMethod=http://{evil}/", host(stack), me),
        request("GET", f"/rest/habanero/session/http:%2f%2f{evil}", host(stack), me),
    ]
    for attempt in tries:
        answer = raw(stack.url, attempt, source=UNTRUSTED)
        assert answer.statuses and answer.status != 500, attempt[:80]
        assert evil not in location(answer.head), attempt[:80]
    assert seen == [], "the gateway called a host no skin names"


def test_no_gateway_answer_redirects_off_site(stack: Stack, demo: Browser) -> None:
    for target in (
        "/?next=https://evil.example/",
        "/home?redirect=//evil.example",
        "//evil.example/",
        "/bff/session?returnUrl=https://evil.example",
        "/%2f%2fevil.example/",
        "/\\evil.example/",
        "/bff/pay/SEQ1?payMethod=phone_pe&next=https://evil.example",
    ):
        answer = raw(stack.url, request("GET", target, host(stack), credentials(demo)))
        assert "evil.example" not in location(answer.head), target


# --- the page's headers -------------------------------------------------------------------------


def test_the_page_carries_its_protections_and_cors_stays_closed(stack: Stack, production: Stack) -> None:
    page = httpx.get(stack.url + "/home")
    csp = page.headers["content-security-policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "frame-ancestors 'self'",
        "object-src 'none'",
        "base-uri 'self'",
    ):
        assert directive in csp, directive
    assert "unsafe-eval" not in csp and "script-src 'self' 'unsafe-inline'" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] in ("strict-origin-when-cross-origin", "no-referrer", "same-origin")
    assert "strict-transport-security" not in page.headers, "no HSTS on plain-http development"
    secure = httpx.get(production.url + "/home")
    assert "max-age=" in secure.headers["strict-transport-security"]
    assert "frame-ancestors 'self'" in secure.headers["content-security-policy"]
    evil = {"Origin": "https://evil.example"}
    asks = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-xsrf-token"}
    preflight = httpx.options(stack.url + BALANCE, headers={**evil, **asks})
    for answer in (
        preflight,
        httpx.get(stack.url + "/bff/config", headers=evil),
        httpx.get(stack.url + "/capi/home-banners", headers=evil),
    ):
        assert "access-control-allow-origin" not in answer.headers
        assert "access-control-allow-credentials" not in answer.headers


def test_the_listener_limits_hold_with_several_workers(tmp_path: Path) -> None:
    """`--workers N` (the bare-host production command) imports the protocol by name in each
    worker: its limits still come from the environment."""
    port = free_port()
    store = RedisServer(require_redis_server(), free_port(), tmp_path)  # workers share one store
    store.start()
    env = {
        **os.environ,
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "MAX_REQUEST_HEAD_BYTES": "4096",
        "REDIS_URL": store.url,
    }
    argv = [sys.executable, "-m", "gateway", "--port", str(port), "--workers", "2"]
    with (tmp_path / "workers.log").open("wb") as log:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/bff/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.2)
        assert raw(url, request("GET", "/bff/health", f"127.0.0.1:{port}", {"X-F": "a" * 100})).status == 200
        assert raw(url, request("GET", "/bff/health", f"127.0.0.1:{port}", {"X-F": "a" * 8000})).status == 431
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        store.stop()
