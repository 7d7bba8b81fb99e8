"""The sandbox over a real socket, served by uvicorn as `python -m sandbox` serves it: what a
client of the platform meets on the wire (chunks, closed connections, cookies, trickling)."""

from __future__ import annotations

import gzip
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import httptools
import httpx
import msgspec
import pytest
import uvicorn

from sandbox.app import SandboxSettings, create_app
from sandbox.state import Wire
from tests.support.stack import free_port

IDLE_S = 1.0


@dataclass
class Reply:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    chunks: int = 0
    body: bytes = b""
    complete: bool = False
    arrivals: list[float] = field(default_factory=list)
    """When each piece of the body arrived (monotonic seconds)."""

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode().lower()] = value.decode()

    def on_chunk_header(self) -> None:
        self.chunks += 1

    def on_body(self, body: bytes) -> None:
        self.body += body
        self.arrivals.append(time.monotonic())

    def on_message_complete(self) -> None:
        self.complete = True

    def json(self) -> object:
        coding = self.headers.get("content-encoding")
        body = gzip.decompress(self.body) if coding == "gzip" else zlib.decompress(self.body) if coding else self.body
        return msgspec.json.decode(body)


class Connection:
    """One kept-alive HTTP/1.1 connection to the sandbox, written by hand."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)

    def call(self, path: str, body: bytes = b"", method: str = "POST", **headers: str) -> Reply:
        # The XSRF cookie echoed, as the gateway does on every call.
        cookie = "; ".join(filter(None, [headers.pop("cookie", ""), "XSRF-TOKEN=t"]))
        named = {"siteid": "aurora", "x-xsrf-token": "t", **headers, "cookie": cookie}
        head = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in named.items())
        self.socket.sendall(
            f"{method} {path} HTTP/1.1\r\nhost: sandbox\r\n{head}content-length: {len(body)}\r\n\r\n".encode() + body
        )
        reply = Reply()
        parser = httptools.HttpResponseParser(reply)
        while not reply.complete:
            data = self.socket.recv(65536)
            assert data, "the sandbox closed the connection before its answer ended"
            parser.feed_data(data)
        reply.status = parser.get_status_code()
        return reply

    def closed_within(self, seconds: float) -> bool:
        self.socket.settimeout(seconds)
        try:
            return self.socket.recv(1) == b""
        except TimeoutError:
            return False

    def close(self) -> None:
        self.socket.close()


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    port = free_port()
    settings = SandboxSettings(wire=Wire(keepalive_requests=5, keepalive_timeout_s=IDLE_S))
    server = uvicorn.Server(create_app(settings).uvicorn_config(host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield port
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def control(port: int) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        client.post("/_sandbox/reset")
        yield client
        client.post("/_sandbox/reset")


@pytest.fixture
def connection(port: int, control: httpx.Client) -> Iterator[Connection]:
    opened = Connection(port)
    yield opened
    opened.close()


def test_gzip_answers_go_chunked_in_more_than_one_piece(connection: Connection) -> None:
    reply = connection.call("/api/player/getCountries", accept_encoding="gzip")
    assert reply.status == 200 and reply.headers["content-encoding"] == "gzip"
    assert reply.headers["transfer-encoding"] == "chunked" and "content-length" not in reply.headers
    assert reply.chunks >= 2
    assert reply.json() == {**reply.json(), "success": True}  # type: ignore[dict-item]


def test_deflate_as_http_means_it(connection: Connection) -> None:
    reply = connection.call("/api/player/getCountries", accept_encoding="deflate")
    assert reply.headers["content-encoding"] == "deflate" and reply.headers["transfer-encoding"] == "chunked"
    assert zlib.decompress(reply.body).startswith(b"{")


def test_a_connection_is_closed_after_its_last_request(connection: Connection) -> None:
    replies = [connection.call("/api/agentAccount/getProviders") for _ in range(5)]
    assert [r.headers.get("connection") for r in replies] == [None, None, None, None, "close"]
    assert connection.closed_within(2), "the sandbox closes it after that answer"


def test_an_idle_connection_is_closed_after_the_timeout(connection: Connection) -> None:
    connection.call("/api/agentAccount/getProviders")
    assert not connection.closed_within(IDLE_S / 2)
    assert connection.closed_within(IDLE_S * 3)


def test_the_idle_timeout_follows_the_wire_for_new_connections(port: int, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"keepaliveTimeoutS": 0.2})
    quick = Connection(port)
    try:
        quick.call("/api/agentAccount/getProviders")
        assert quick.closed_within(IDLE_S / 2)
    finally:
        quick.close()


def test_a_balancers_error_page(connection: Connection, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"balancerErrors": True})
    control.put("/_sandbox/faults/getProviders", json={"errorRate": 1.0, "errorStatus": 504})
    reply = connection.call("/api/agentAccount/getProviders", accept_encoding="gzip")
    assert reply.status == 504 and reply.headers["content-type"].startswith("text/html")
    assert b"<center><h1>504 Gateway Time-out</h1></center>" in reply.body


def test_a_sticky_cookie_and_a_miss(connection: Connection, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"sticky": True})
    first = connection.call("/api/agentAccount/getProviders")
    cookie = first.headers["set-cookie"]
    assert cookie.startswith("AWSALB=") and "Path=/" in cookie
    backend = cookie.split(";")[0]
    session = _login(connection, backend)["sessionId"]
    kept = connection.call("/api/cashier/balance", cookie=backend, wsession=session)
    assert kept.json()["success"] is True and "set-cookie" not in kept.headers  # type: ignore[index]
    lost = connection.call("/api/cashier/balance", wsession=session)
    assert lost.status == 200 and lost.json()["code"] == "SESSION_EXPIRED"  # type: ignore[index]
    assert control.get("/_sandbox/wire/counts").json()["stickyMisses"] == 1


def test_answers_trickle(connection: Connection, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"trickleMs": 20})
    started = time.monotonic()
    reply = connection.call("/api/player/getGames")  # some 5 kB: twenty pieces
    assert reply.json() == {**reply.json(), "success": True}  # type: ignore[dict-item]
    pieces = len(reply.body) // 256
    assert pieces >= 10 and time.monotonic() - started >= pieces * 0.02
    assert len(reply.arrivals) >= pieces, "the body came in pieces, apart"


def test_unknown_fields_over_the_wire(connection: Connection, control: httpx.Client) -> None:
    control.put("/_sandbox/wire", json={"extraFields": True})
    reply = connection.call("/api/agentAccount/getProviders", accept_encoding="gzip")
    providers = reply.json()
    assert isinstance(providers, list) and providers[0]["_lb"] and "serverTime" in providers[0]


def _login(connection: Connection, backend: str) -> dict[str, str]:
    """Logs the demo player in through the balancer's `backend`."""
    body = b'{"login": "demo1", "password": "demo123"}'
    login = connection.call("/api/player/login", body, cookie=backend).json()
    assert isinstance(login, dict) and login["success"], login
    return login
