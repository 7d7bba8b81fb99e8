"""`/bff/events` on the real product in one process (gateway + sandbox, memory store), with a
1 s interval: the balance pushed, only when it changed, at once after a money call; resume with
`Last-Event-ID`; the session's end; the bounds; who may not have a stream."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.browser import Browser as Player
from tests.support.events import EventReader
from tests.support.stack import Stack, start_stack

DEPOSIT = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}
INTERVAL_S = 1.0
ENV = {
    "EVENTS_INTERVAL_S": str(INTERVAL_S),
    "EVENTS_HEARTBEAT_S": "0.5",
    "EVENTS_PER_SESSION": "2",
    "EVENTS_MAX_STREAMS": "6",
    "EVENTS_CONNECTS_PER_MINUTE": "40",
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(tmp_path_factory.mktemp("events"), env=ENV)
    yield running
    running.stop()
    assert '"status":500' not in running.logs()


@pytest.fixture
def control(stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.sandbox_url) as client:
        client.post("/_sandbox/reset").raise_for_status()
        client.put("/_sandbox/config", json={"depositApprovalDelayS": 0})
        yield client


def logged_in(stack: Stack, login: str, control: httpx.Client) -> Player:
    control.post("/_sandbox/sites/aurora/players", json={"login": login, "password": "secret123", "cash": "500"})
    player = Player(stack.url)
    player.login(login, "secret123")
    return player


def cash(event_data: dict[str, object]) -> float:
    values = event_data["values"]
    assert isinstance(values, list)
    return float(values[0]["cash"]["value"])


def test_a_logged_in_player_gets_the_balance_at_once_then_only_when_it_changes(
    stack: Stack, control: httpx.Client
) -> None:
    player = logged_in(stack, "stream1", control)
    with EventReader(stack.url, player.http.cookies) as stream:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["x-accel-buffering"] == "no"
        assert "no-cache" in stream.headers["cache-control"]
        first = stream.next("balance")
        assert cash(first.json()) == 500
        assert first.id
        time.sleep(3 * INTERVAL_S)  # three polls of an unchanged balance: heartbeats only
        assert [item for item in stream.drain() if item.kind == "balance"] == []


def test_a_deposit_shows_at_once_not_at_the_next_interval(stack: Stack, control: httpx.Client) -> None:
    player = logged_in(stack, "stream2", control)
    control.put("/_sandbox/config", json={"depositApprovalDelayS": 0.3})
    with EventReader(stack.url, player.http.cookies) as stream:
        stream.next("balance")
        answer = player.post("/api/cashier/buy", DEPOSIT, headers={"Idempotency-Key": "deposit-stream2-1"})
        assert answer.status_code == 200 and answer.json()["success"] is True
        sent = time.monotonic()
        after = stream.next("balance", within_s=3)
        assert cash(after.json()) == 1500
        assert time.monotonic() - sent < 1.0, "the provider's approval (0.3 s) shown within a second"


def test_a_stream_resumed_with_the_last_event_id_is_not_sent_the_same_balance_again(
    stack: Stack, control: httpx.Client
) -> None:
    player = logged_in(stack, "stream3", control)
    with (
        EventReader(stack.url, player.http.cookies) as first,
        EventReader(stack.url, player.http.cookies, {"last-event-id": first.next("balance").id or ""}) as resumed,
    ):
        resumed.next("comment")
        time.sleep(0.3)
        assert [item for item in resumed.drain() if item.kind == "balance"] == []
    with EventReader(stack.url, player.http.cookies, {"last-event-id": "old.1"}) as stale:
        assert cash(stale.next("balance").json()) == 500


def test_logout_ends_every_stream_of_the_session_with_the_reason(stack: Stack, control: httpx.Client) -> None:
    player = logged_in(stack, "stream4", control)
    with EventReader(stack.url, player.http.cookies) as one, EventReader(stack.url, player.http.cookies) as two:
        one.next("balance")
        two.next("balance")
        assert player.post("/api/player/logout").status_code == 200
        for stream in (one, two):
            assert stream.next("end", within_s=2).json() == {"reason": "logout"}
            assert stream.closed.wait(2)


def test_an_expired_platform_session_ends_the_stream(stack: Stack, control: httpx.Client) -> None:
    player = logged_in(stack, "stream5", control)
    with EventReader(stack.url, player.http.cookies) as stream:
        stream.next("balance")
        control.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "stream5"}).raise_for_status()
        assert stream.next("end", within_s=3 * INTERVAL_S).json() == {"reason": "expired"}
    assert player.get("/bff/session").json()["loggedIn"] is False


def test_a_visitor_a_forged_cookie_and_another_sites_cookie_get_no_stream(stack: Stack, control: httpx.Client) -> None:
    visitor = Player(stack.url)
    with EventReader(stack.url, visitor.http.cookies) as stream:
        assert stream.status == 401
        assert stream.body and b'"code":"NOT_LOGGED_IN"' in stream.body
    forged = httpx.Cookies({"bff": "A" * 43})
    with EventReader(stack.url, forged) as stream:
        assert stream.status == 401
    player = logged_in(stack, "stream6", control)
    cookie = player.cookie
    foreign = httpx.Cookies({"bff": cookie})
    with EventReader(stack.url, foreign, {"host": "pampa.localhost"}) as stream:
        assert stream.status == 401


def test_streams_past_the_sessions_bound_are_refused_with_a_clear_code(stack: Stack, control: httpx.Client) -> None:
    player = logged_in(stack, "stream7", control)
    with EventReader(stack.url, player.http.cookies) as one, EventReader(stack.url, player.http.cookies) as two:
        assert one.status == two.status == 200
        with EventReader(stack.url, player.http.cookies) as three:
            assert three.status == 429
            assert b'"code":"TOO_MANY_STREAMS"' in three.body


def test_streams_past_the_instances_bound_are_refused_and_polling_still_answers(
    stack: Stack, control: httpx.Client
) -> None:
    players = [logged_in(stack, f"full{n}", control) for n in range(4)]
    streams = [EventReader(stack.url, p.http.cookies) for p in players for _ in range(2)][:6]
    try:
        assert all(s.status == 200 for s in streams)
        with EventReader(stack.url, players[3].http.cookies) as refused:
            assert refused.status == 503
            assert b'"code":"STREAMS_FULL"' in refused.body
        assert players[3].post("/api/cashier/balance").status_code == 200
    finally:
        for stream in streams:
            stream.close()


def test_the_stream_is_never_compressed(stack: Stack, control: httpx.Client) -> None:
    player = logged_in(stack, "stream8", control)
    with EventReader(stack.url, player.http.cookies, {"accept-encoding": "gzip, br, zstd"}) as stream:
        assert stream.status == 200
        assert "content-encoding" not in stream.headers
        stream.next("balance")


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) / 1024


def never_reading_stream(url: str, cookies: httpx.Cookies) -> socket.socket:
    """`/bff/events` opened by a client that never reads: a receive buffer as small as the kernel
    allows, so what the gateway writes piles up on its side."""
    address = urlsplit(url)
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    client.connect((address.hostname or "127.0.0.1", address.port or 80))
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    client.sendall(
        f"GET /bff/events HTTP/1.1\r\nHost: {address.netloc}\r\nAccept: text/event-stream\r\n"
        f"Cookie: {cookie}\r\n\r\n".encode()
    )
    return client


def closed_by_the_server(client: socket.socket, within_s: float) -> bool:
    """Reads what the gateway had written: True if it ends (closed or reset) within `within_s`."""
    client.settimeout(within_s)
    try:
        while client.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def test_a_client_that_never_reads_is_dropped_and_the_players_other_stream_goes_on(
    stack: Stack, control: httpx.Client
) -> None:
    player = logged_in(stack, "stalled", control)
    others = [logged_in(stack, f"room{n}", control) for n in range(3)]
    stalled = never_reading_stream(stack.url, player.http.cookies)
    try:
        assert stalled.recv(12, socket.MSG_PEEK) == b"HTTP/1.1 200"
        with EventReader(stack.url, player.http.cookies) as reading:
            reading.next("balance")
            rss_before = rss_mb(stack.process.pid)
            made, deadline, dropped = 0, time.monotonic() + 90, stack.logs().count("events.dropped_")
            while stack.logs().count("events.dropped_") == dropped:  # balance changes until the gateway gives up
                assert time.monotonic() < deadline, "a stream nobody reads was still held after 90 s"
                made += 1  # the sandbox's wallet changed, then read by the player: an event at once
                cash_now = {"login": "stalled", "password": "secret123", "cash": str(1000 + made)}
                control.post("/_sandbox/sites/aurora/players", json=cash_now).raise_for_status()
                player.post("/api/cashier/balance")
            assert closed_by_the_server(stalled, within_s=5), "the gateway still holds the stream"
            # The stream's place is free again: 1 (the reading tab) + 5 = the instance's 6.
            room = [EventReader(stack.url, p.http.cookies) for p in others for _ in range(2)][:5]
            try:
                assert [r.status for r in room] == [200] * 5
            finally:
                for stream in room:
                    stream.close()
            assert rss_mb(stack.process.pid) - rss_before < 64, "the unread events were buffered"
            # The player's tab that reads was never dropped and has the newest balance.
            expected = 1000 + made
            while cash(reading.next("balance", within_s=5).json()) != expected:
                pass
            assert not reading.closed.is_set()
    finally:
        stalled.close()
