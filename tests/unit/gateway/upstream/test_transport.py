"""The upstream transport (`gateway.upstream.transport.Pool`) against real local servers: what a proxy
to the platform relies on, and what went wrong with the clients before it."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import httpx
import pytest
import trustme
from aiohttp import web

from gateway.upstream.pools import UpstreamClients
from gateway.upstream.transport import Pool, Timeouts
from tests.support.fixtures import asyncio_and_uvloop  # noqa: F401  (the `anyio_backend`: each test on both loops)

pytestmark = pytest.mark.anyio
QUICK = Timeouts(connect=1.0, read=1.0)


@pytest.fixture
async def server() -> AsyncIterator[str]:
    """An echo platform (aiohttp) that also counts the connections it was given."""
    peers: set[tuple[str, int]] = set()

    async def echo(request: web.Request) -> web.StreamResponse:
        peers.add(request.transport.get_extra_info("peername"))  # type: ignore[union-attr]
        if request.query.get("hangup"):
            assert request.transport is not None
            request.transport.close()  # the platform drops the connection after reading the call
            await asyncio.sleep(0.1)
        if request.query.get("sleep"):
            await asyncio.sleep(float(request.query["sleep"]))
        if request.query.get("big"):
            return web.Response(body=b"x" * int(request.query["big"]), content_type="application/octet-stream")
        body = (await request.read()).decode()
        answer = web.json_response(
            {"cookie": request.headers.get("cookie"), "body": body, "peers": len(peers), "path": request.path_qs}
        )
        if "set" in request.query:
            answer.set_cookie("JSESSIONID", request.query["set"], path="/")
        if request.query.get("close"):
            answer.force_close()
        return answer

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    # A host name, not an IP: aiohttp's cookie jar refused cookies from IP addresses, which
    # hid the leak this file guards against.
    yield f"http://localhost:{port}"
    await runner.cleanup()


@asynccontextmanager
async def raw_platform(
    answer: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
) -> AsyncIterator[str]:
    """A platform written byte by byte, for answers aiohttp would not give."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await answer(reader, writer)
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.lower().split(b"\r\n")
    length = next((int(line.split(b":")[1]) for line in lines if line.startswith(b"content-length")), 0)
    return head + (await reader.readexactly(length) if length else b"")


def _json(body: bytes) -> dict[str, object]:
    import json

    data = json.loads(body)
    assert isinstance(data, dict)
    return data


async def test_one_players_upstream_cookies_never_ride_on_anothers_call(server: str) -> None:
    pool = Pool(server)
    try:
        first = await pool.request("POST", "/login?set=player-a-secret", {"cookie": "XSRF-TOKEN=a"}, b"", QUICK)
        assert "JSESSIONID=player-a-secret" in (first.header("set-cookie") or ""), "the gateway still sees Set-Cookie"
        second = await pool.request("POST", "/balance", {"cookie": "XSRF-TOKEN=b"}, b"{}", QUICK)
    finally:
        await pool.aclose()
    assert _json(second.body)["cookie"] == "XSRF-TOKEN=b"
    assert _json(second.body)["body"] == "{}"


async def test_failures_say_whether_the_call_went_out(server: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    refused, platform = Pool(closed), Pool(server)
    try:
        with pytest.raises(httpx.ConnectError):
            await refused.request("POST", "/balance", {}, b"{}", QUICK)
        with pytest.raises(httpx.ReadError):
            await platform.request("POST", "/cashout?hangup=1", {}, b"{}", QUICK)
        assert (await platform.request("GET", "/after", {}, None, QUICK)).status == 200, "the pool recovers"
    finally:
        await refused.aclose()
        await platform.aclose()


async def test_calls_one_after_another_share_one_connection(server: str) -> None:
    pool = Pool(server)
    try:
        for _ in range(20):
            answer = await pool.request("POST", "/balance", {"content-type": "application/json"}, b"{}", QUICK)
        assert _json(answer.body)["peers"] == 1
        closing = await pool.request("GET", "/x?close=1", {}, None, QUICK)
        assert closing.status == 200
        after = await pool.request("GET", "/y", {}, None, QUICK)
        assert _json(after.body)["peers"] == 2, "a connection the platform closes is not reused"
    finally:
        await pool.aclose()


async def test_the_pool_holds_at_most_its_connections_and_waiters_get_them_in_turn(server: str) -> None:
    pool = Pool(server, max_connections=2)
    try:
        answers = await asyncio.gather(*(pool.request("GET", "/slow?sleep=0.05", {}, None, QUICK) for _ in range(8)))
        assert all(a.status == 200 for a in answers)
        assert max(int(str(_json(a.body)["peers"])) for a in answers) == 2
        assert pool.stats() == {"open": 2, "idle": 2, "waiting": 0}
        with pytest.raises(httpx.PoolTimeout):
            await asyncio.gather(
                pool.request("GET", "/slow?sleep=0.5", {}, None, QUICK),
                pool.request("GET", "/slow?sleep=0.5", {}, None, QUICK),
                pool.request("GET", "/late", {}, None, Timeouts(connect=0.1, read=1.0)),
            )
    finally:
        await pool.aclose()


async def test_a_silent_platform_times_out_and_its_connection_is_dropped(server: str) -> None:
    pool = Pool(server)
    try:
        with pytest.raises(httpx.ReadTimeout):
            await pool.request("GET", "/slow?sleep=1", {}, None, Timeouts(connect=1.0, read=0.1))
        assert pool.stats()["idle"] == 0
        assert (await pool.request("GET", "/next", {}, None, QUICK)).status == 200
    finally:
        await pool.aclose()


async def test_chunked_gzip_and_close_delimited_answers_are_read_whole() -> None:
    payload = b'{"success":true,"values":[1,2,3]}'

    async def chunked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        zipped = gzip.compress(payload)
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
        )
        for part in (zipped[:10], zipped[10:]):
            writer.write(b"%x\r\n%b\r\n" % (len(part), part))
        writer.write(b"0\r\n\r\n")
        await writer.drain()

    async def until_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n" + payload)
        await writer.drain()

    for answer in (chunked, until_close):
        async with raw_platform(answer) as origin:
            pool = Pool(origin)
            try:
                got = await pool.request("GET", "/content", {}, None, QUICK)
            finally:
                await pool.aclose()
            assert (got.status, got.body) == (200, payload), answer.__name__


async def test_a_gzip_bomb_is_refused_without_being_inflated_whole() -> None:
    """Found by sending a 100 kB gzip answer that inflates to 100 MB: it was inflated whole in
    memory (and then shared through Redis). Inflation stops at the read-whole cap instead."""
    import resource

    bomb = gzip.compress(b"0" * (64 * 1024 * 1024), compresslevel=9)  # 64 MB in ~64 kB
    truncated = gzip.compress(b'{"success":true}')[:-6]

    def platform(zipped: bytes) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await _read_request(reader)
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\n"
                b"content-length: %d\r\n\r\n%b" % (len(zipped), zipped)
            )
            await writer.drain()

        return answer

    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for zipped, says in ((bomb, "larger than"), (truncated, "ended before")):
        async with raw_platform(platform(zipped)) as origin:
            pool = Pool(origin, max_body=4 * 1024 * 1024)
            try:
                with pytest.raises(httpx.RemoteProtocolError, match=says):
                    await pool.request("GET", "/content", {}, None, QUICK)
            finally:
                await pool.aclose()
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mb < 32, f"the process grew {grown_mb:.0f} MB reading a 64 MB bomb capped at 4 MB"


async def test_a_kept_alive_connection_the_platform_dropped_is_told_apart(server: str) -> None:
    """Found under a flood: the platform (uvicorn, 5 s keep-alive) closed idle connections just
    as calls went out on them, and players' reads failed with 502. Such a failure is told apart
    (the platform never read the call, so a read may go again), and a call that may never be
    retried is not sent on a connection idle for long."""
    from gateway.upstream.transport import StaleConnection

    answered = 0

    async def drops_the_second(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal answered
        await _read_request(reader)
        answered += 1
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}")
        await writer.drain()
        with contextlib.suppress(asyncio.IncompleteReadError):
            await _read_request(reader)  # the platform closes instead of answering

    async with raw_platform(drops_the_second) as origin:
        pool = Pool(origin)
        try:
            assert (await pool.request("GET", "/a", {}, None, QUICK)).status == 200
            with pytest.raises(StaleConnection):
                await pool.request("GET", "/b", {}, None, QUICK)
            assert (await pool.request("GET", "/c", {}, None, QUICK)).status == 200, "a fresh connection"
        finally:
            await pool.aclose()
    assert answered == 2

    pool = Pool(server)
    try:
        first = _json((await pool.request("GET", "/", {}, None, QUICK)).body)
        await asyncio.sleep(0.3)
        careful = Timeouts(connect=1.0, read=1.0, reuse_idle=0.2)
        second = _json((await pool.request("POST", "/", {}, b"{}", careful)).body)
        third = _json((await pool.request("GET", "/", {}, None, QUICK)).body)
    finally:
        await pool.aclose()
    assert (first["peers"], second["peers"], third["peers"]) == (1, 2, 2), "idle too long: a new connection"


async def test_a_header_or_path_that_would_split_the_request_is_never_sent() -> None:
    received: list[bytes] = []

    async def record(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.append(await reader.read(65536))

    async with raw_platform(record) as origin:
        pool = Pool(origin)
        try:
            for headers, target in (
                ({"wsession": "abc\r\nsiteid: other"}, "/x"),
                ({}, "/x HTTP/1.1\r\nhost: evil"),
                ({"x": "a\nb"}, "/x"),
                ({"x": "caf\u00e9\u2603"}, "/x"),
            ):
                with pytest.raises(httpx.LocalProtocolError):
                    await pool.request("POST", target, headers, b"{}", QUICK)
        finally:
            await pool.aclose()
        await asyncio.sleep(0.05)
    assert received == [], "nothing reached the platform"


async def test_big_answers_stream_with_backpressure_and_uploads_stream_out(server: str) -> None:
    pool = Pool(server)
    size = 3 * 1024 * 1024
    try:
        answer = await pool.stream("GET", f"/media?big={size}", {}, None, QUICK)
        got = 0
        async for chunk in answer.stream:
            got += len(chunk)
            await asyncio.sleep(0)  # a slow reader: the pool pauses reading instead of buffering it all
        await answer.aclose()
        assert got == size

        async def upload() -> AsyncIterator[bytes]:
            for part in (b"--b\r\n", b"a" * 100_000, b"\r\n--b--\r\n"):
                yield part

        for length in (None, 100_014):  # chunked, then with a known length
            streamed = await pool.stream("POST", "/upload", {"content-type": "text/plain"}, upload(), QUICK, length)
            body = b"".join([chunk async for chunk in streamed.stream])
            await streamed.aclose()
            assert len(str(_json(body)["body"])) == 100_014
        assert pool.stats()["open"] == 1, "finished streams give their connection back"
    finally:
        await pool.aclose()


async def test_https_origins_are_verified() -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("localhost")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(server_context)

    async def hello(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()

    server = await asyncio.start_server(hello, "127.0.0.1", 0, ssl=server_context)
    port = server.sockets[0].getsockname()[1]
    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    good, stranger = Pool(f"https://localhost:{port}", ssl_context=trusting), Pool(f"https://localhost:{port}")
    try:
        assert (await good.request("GET", "/", {}, None, QUICK)).body == b"ok"
        with pytest.raises(httpx.ConnectError):
            await stranger.request("GET", "/", {}, None, QUICK)  # an unknown certificate is refused
    finally:
        await good.aclose()
        await stranger.aclose()
        server.close()


async def test_clients_give_one_pool_per_origin_and_probe_reachability(server: str) -> None:
    clients = UpstreamClients()
    try:
        assert clients.upstream(server) is clients.upstream(server)
        assert await clients.reachable(server) == (True, 200)
        assert (await clients.reachable("http://127.0.0.1:9"))[0] is False
    finally:
        await clients.aclose()


async def test_a_slow_player_upload_is_not_the_platforms_delay_but_a_platform_that_stops_reading_is(
    server: str,
) -> None:
    """The read timeout once ran while the pool waited on the player's next chunk."""
    pool = Pool(server)

    async def slow_player() -> AsyncIterator[bytes]:
        for _ in range(3):
            await asyncio.sleep(0.3)
            yield b"x" * 10

    try:
        answer = await pool.stream("POST", "/upload", {}, slow_player(), Timeouts(connect=1.0, read=0.1))
        body = b"".join([chunk async for chunk in answer.stream])
        await answer.aclose()
        assert _json(body)["body"] == "x" * 30
    finally:
        await pool.aclose()

    async def never_reads(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(1)

    async def big_upload() -> AsyncIterator[bytes]:
        for _ in range(64):
            yield b"x" * (1024 * 1024)

    async with raw_platform(never_reads) as origin:
        stuck = Pool(origin)
        try:
            with pytest.raises(httpx.WriteTimeout):
                await stuck.stream("POST", "/upload", {}, big_upload(), Timeouts(connect=1.0, read=0.2))
        finally:
            await stuck.aclose()


async def test_a_connection_handed_to_a_waiter_that_just_gave_up_goes_back_to_the_pool(server: str) -> None:
    """Found in review: a connection handed over in the same turn as the waiter's timeout or
    cancellation was lost with its place, and the pool shrank by one for good."""
    pool = Pool(server, max_connections=1)
    try:
        await pool.request("GET", "/warm", {}, None, QUICK)
        busy = await pool._acquire(QUICK)  # the pool's one connection, taken
        waiting = asyncio.ensure_future(pool._acquire(QUICK))
        await asyncio.sleep(0.01)
        assert pool.stats()["waiting"] == 1
        pool.release(busy, reusable=True)  # handed to the waiter...
        waiting.cancel()  # ...which is cancelled before it could take it
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert pool.stats() == {"open": 1, "idle": 1, "waiting": 0}
        assert (await pool.request("GET", "/after", {}, None, Timeouts(connect=0.2, read=1.0))).status == 200
    finally:
        await pool.aclose()
