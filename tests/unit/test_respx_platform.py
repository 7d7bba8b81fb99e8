"""`RespxPlatform` (tests/support/respx_platform.py) driven by the gateway's production pool:
respx routes answer over real sockets, and mocked failures become what a real platform does."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import respx
from respx.models import AllMockedAssertionError

from gateway.upstream.transport import Pool, StaleConnection, Timeouts
from tests.support.fixtures import asyncio_and_uvloop  # noqa: F401  (the `anyio_backend`: each test on both loops)
from tests.support.respx_platform import RespxPlatform

pytestmark = pytest.mark.anyio
UPSTREAM = "http://127.0.0.1:8001"
QUICK = Timeouts(connect=1.0, read=1.0)


@pytest.fixture
def router() -> respx.Router:
    return respx.Router(base_url=UPSTREAM, assert_all_called=False)


@asynccontextmanager
async def serving(router: respx.Router) -> AsyncIterator[tuple[RespxPlatform, Pool]]:
    async with RespxPlatform(router) as platform:
        pool = Pool(platform.url)
        try:
            yield platform, pool
        finally:
            await pool.aclose()


async def test_a_json_post_with_cookies_comes_back_intact_and_is_recorded(router: respx.Router) -> None:
    answer_headers = [("set-cookie", "JSESSIONID=s1; Path=/"), ("x-one", "1"), ("set-cookie", "XSRF-TOKEN=t2; Path=/")]
    login = router.post("/api/player/login").mock(
        return_value=httpx.Response(200, json={"success": True}, headers=answer_headers)
    )
    sent = {"cookie": "JSESSIONID=s0; XSRF-TOKEN=t1", "content-type": "application/json", "x-xsrf-token": "t1"}
    async with serving(router) as (platform, pool):
        answer = await pool.request("POST", "/api/player/login?lang=es", sent, b'{"login":"demo1"}', QUICK)
    assert answer.status == 200 and json.loads(answer.body) == {"success": True}
    assert answer.header_values("set-cookie") == ["JSESSIONID=s1; Path=/", "XSRF-TOKEN=t2; Path=/"]
    names = [name for name, _ in answer.headers]
    assert names == ["set-cookie", "x-one", "set-cookie", "content-type", "content-length"]
    assert answer.header("content-length") == str(len(answer.body))
    request = login.calls.last.request
    assert login.call_count == 1 and router.calls.call_count == 1
    assert str(request.url) == f"{UPSTREAM}/api/player/login?lang=es"
    assert request.headers.raw == [
        (b"host", f"127.0.0.1:{platform.port}".encode()),
        *((k.encode(), v.encode()) for k, v in sent.items()),
        (b"content-length", b"17"),
    ], "as the pool sent them, nothing added"
    assert json.loads(request.content) == {"login": "demo1"}


@pytest.mark.parametrize("how", ["content", "stream"])
async def test_a_streamed_answer_is_sent_chunked_as_it_comes(router: respx.Router, how: str) -> None:
    go_on = asyncio.Event()

    async def video() -> AsyncIterator[bytes]:
        yield b"first"
        await go_on.wait()  # the second chunk does not exist until the first was received
        yield b"second"

    class Stream(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in video():
                yield chunk

    body = {"content": video()} if how == "content" else {"stream": Stream()}
    router.get("/capi/video").mock(return_value=httpx.Response(200, headers={"content-type": "video/mp4"}, **body))
    router.get("/capi/after").mock(return_value=httpx.Response(200))
    async with serving(router) as (platform, pool):
        answer = await pool.stream("GET", "/capi/video", {}, None, QUICK)
        try:
            assert answer.header("transfer-encoding") == "chunked" and answer.header("content-length") is None
            chunks = answer.stream
            assert await anext(chunks) == b"first"
            go_on.set()
            assert [chunk async for chunk in chunks] == [b"second"]
        finally:
            await answer.aclose()
        assert (await pool.request("GET", "/capi/after", {}, None, QUICK)).status == 200
        assert platform.accepted == 1, "the connection was reused after the streamed answer"


async def test_uploads_arrive_whole_chunked_or_with_a_length(router: respx.Router) -> None:
    upload = router.post("/api/player/upload").mock(return_value=httpx.Response(201))
    data = bytes(range(256)) * 4096 * 3  # 3 MiB
    parts = [data[i : i + 65536] for i in range(0, len(data), 65536)]

    async def chunks() -> AsyncIterator[bytes]:
        for part in parts:
            yield part

    headers = {"content-type": "multipart/form-data; boundary=x"}
    async with serving(router) as (_, pool):
        chunked = await pool.stream("POST", "/api/player/upload", headers, chunks(), QUICK)
        await chunked.aclose()
        sized = await pool.stream("POST", "/api/player/upload", headers, chunks(), QUICK, length=len(data))
        await sized.aclose()
        whole = await pool.request("POST", "/api/player/upload", headers, data, QUICK)
    assert chunked.status == sized.status == whole.status == 201
    first, second, third = (call.request for call in upload.calls)
    assert first.content == second.content == third.content == data
    assert first.headers["transfer-encoding"] == "chunked" and "content-length" not in first.headers
    assert second.headers["content-length"] == third.headers["content-length"] == str(len(data))


async def test_connections_are_kept_alive_unless_either_side_says_close(router: respx.Router) -> None:
    balance = router.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"balance": 1}))
    router.post("/api/player/logout").mock(return_value=httpx.Response(200, headers={"connection": "close"}))
    async with serving(router) as (platform, pool):
        for _ in range(2):
            assert (await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)).status == 200
        assert platform.accepted == 1 and balance.call_count == 2, "two calls, one connection"
        closing = await pool.request("POST", "/api/cashier/balance", {"connection": "close"}, b"{}", QUICK)
        assert closing.header("connection") == "close"
        await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
        assert platform.accepted == 2, "the player's side said close"
        await pool.request("POST", "/api/player/logout", {}, b"{}", QUICK)
        await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
        assert platform.accepted == 3, "the platform's side said close"


async def test_sync_and_async_side_effects_answer(router: respx.Router) -> None:
    def echo(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"got": json.loads(request.content)})

    async def later(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.01)
        return httpx.Response(202, json={"path": request.url.path, "q": request.url.params["q"]})

    router.post("/sync").mock(side_effect=echo)
    router.get("/async").mock(side_effect=later)
    router.get("/sequence").mock(side_effect=[httpx.Response(502), httpx.Response(200)])
    async with serving(router) as (_, pool):
        synced = await pool.request("POST", "/sync", {}, b'{"a": 1}', QUICK)
        awaited = await pool.request("GET", "/async?q=x", {}, None, QUICK)
        statuses = [(await pool.request("GET", "/sequence", {}, None, QUICK)).status for _ in range(2)]
    assert json.loads(synced.body) == {"got": {"a": 1}}
    assert awaited.status == 202 and json.loads(awaited.body) == {"path": "/async", "q": "x"}
    assert statuses == [502, 200]


# --- mocked failures --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mocked", "fresh", "reused"),
    [
        (httpx.ConnectError("down"), httpx.ReadError, StaleConnection),
        (httpx.ConnectTimeout("slow to connect"), httpx.ReadError, StaleConnection),
        (httpx.ReadError("connection reset"), httpx.ReadError, httpx.ReadError),
        (httpx.RemoteProtocolError("nonsense"), httpx.RemoteProtocolError, httpx.RemoteProtocolError),
    ],
    ids=["ConnectError", "ConnectTimeout", "ReadError", "RemoteProtocolError"],
)
async def test_a_mocked_failure_is_what_the_pool_meets_on_a_real_connection(
    router: respx.Router, mocked: httpx.TransportError, fresh: type[Exception], reused: type[Exception]
) -> None:
    router.get("/ok").mock(return_value=httpx.Response(200))
    failing = router.post("/api/cashier/cashout12").mock(side_effect=mocked)
    async with serving(router) as (platform, pool):
        with pytest.raises(fresh) as on_fresh:
            await pool.request("POST", "/api/cashier/cashout12", {}, b"{}", QUICK)
        assert (await pool.request("GET", "/ok", {}, None, QUICK)).status == 200
        with pytest.raises(reused) as on_reused:
            await pool.request("POST", "/api/cashier/cashout12", {}, b"{}", QUICK)
        assert (await pool.request("GET", "/ok", {}, None, QUICK)).status == 200, "the pool recovers"
    assert failing.call_count == 2 and not failing.calls.last.has_response, "recorded as respx records it"
    if reused is not StaleConnection:
        assert not isinstance(on_reused.value, StaleConnection), "told as lost after sending, reused or not"
    if fresh is httpx.ReadError:
        assert not isinstance(on_fresh.value, StaleConnection)
    assert platform.errors == []


async def test_a_mocked_connect_error_resets_the_connection(router: respx.Router) -> None:
    router.get("/down").mock(side_effect=httpx.ConnectError("down"))
    async with RespxPlatform(router) as platform:
        reader, writer = await asyncio.open_connection("127.0.0.1", platform.port)
        writer.write(b"GET /down HTTP/1.1\r\nhost: x\r\n\r\n")
        with pytest.raises(ConnectionResetError):
            await reader.read()
        writer.close()
        with pytest.raises(ConnectionResetError):
            await writer.wait_closed()


async def test_a_platform_refusing_connections_gives_a_real_connect_error(router: respx.Router) -> None:
    balance = router.post("/api/cashier/balance").mock(return_value=httpx.Response(200))
    async with serving(router) as (platform, pool):
        await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)  # leaves an idle connection
        async with platform.refusing():
            with pytest.raises(httpx.ConnectError):
                await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
        assert (await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)).status == 200, "up again"
    assert balance.call_count == 2, "a refused call never reaches respx"


@pytest.mark.parametrize(
    "mocked", [httpx.ReadTimeout("slow"), httpx.WriteTimeout("stuck")], ids=lambda e: type(e).__name__
)
async def test_a_mocked_timeout_is_a_platform_that_never_answers(router: respx.Router, mocked: Exception) -> None:
    router.post("/api/cashier/balance").mock(side_effect=mocked)
    async with serving(router) as (platform, pool):
        started = time.monotonic()
        with pytest.raises(httpx.ReadTimeout):
            await pool.request("POST", "/api/cashier/balance", {}, b"{}", Timeouts(connect=1.0, read=0.2))
        assert 0.15 < time.monotonic() - started < 1.0, "the pool's own read timeout, not the mock"
        await asyncio.sleep(0.05)
        assert platform.accepted == 1 and platform.connections == 0, "held until the pool hung up"


async def test_streamed_calls_meet_a_mocked_read_error_mid_body_and_a_protocol_error_before_the_head(
    router: respx.Router,
) -> None:
    router.get("/cut").mock(side_effect=httpx.ReadError("reset"))
    router.get("/nonsense").mock(side_effect=httpx.RemoteProtocolError("nonsense"))

    async def breaks() -> AsyncIterator[bytes]:
        yield b"some"
        raise httpx.ReadError("the platform broke mid-stream")

    router.get("/breaks").mock(return_value=httpx.Response(200, content=breaks()))
    async with serving(router) as (platform, pool):
        for path in ("/cut", "/breaks"):
            answer = await pool.stream("GET", path, {}, None, QUICK)
            assert answer.status == 200
            with pytest.raises(httpx.ReadError):
                async for _ in answer.stream:
                    pass
            await answer.aclose()
        with pytest.raises(httpx.RemoteProtocolError):
            await pool.stream("GET", "/nonsense", {}, None, QUICK)
    assert platform.errors == []


async def test_a_side_effect_still_running_when_the_pool_gives_up_is_cancelled(router: respx.Router) -> None:
    cancelled = asyncio.Event()

    async def slow(_: httpx.Request) -> httpx.Response:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return httpx.Response(200)

    router.post("/api/cashier/cashout12").mock(side_effect=slow)
    async with serving(router) as (_, pool):
        with pytest.raises(httpx.ReadTimeout):
            await pool.request("POST", "/api/cashier/cashout12", {}, b"{}", Timeouts(connect=1.0, read=0.1))
        await asyncio.wait_for(cancelled.wait(), 1)


# --- test bugs fail loudly --------------------------------------------------------------


async def test_an_unmatched_request_answers_500_and_fails_the_test() -> None:
    strict = respx.Router(base_url=UPSTREAM)
    with pytest.raises(AllMockedAssertionError, match="not mocked"):
        async with serving(strict) as (platform, pool):
            answer = await pool.request("GET", "/api/not/mocked", {}, None, QUICK)
            assert answer.status == 500 and b"not mocked" in answer.body
            assert len(platform.errors) == 1


async def test_a_failing_side_effect_answers_500_and_is_kept_for_the_test(router: respx.Router) -> None:
    def checks(request: httpx.Request) -> httpx.Response:
        assert request.headers.get("x-xsrf-token"), "the XSRF echo is missing"
        return httpx.Response(200)

    router.post("/api/cashier/balance").mock(side_effect=checks)
    async with serving(router) as (platform, pool):
        answer = await pool.request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
        assert answer.status == 500 and b"the XSRF echo is missing" in answer.body
        assert [type(e) for e in platform.errors] == [AssertionError]
        platform.errors.clear()  # expected: the test took it


async def test_several_errors_leave_as_a_group() -> None:
    with pytest.raises(ExceptionGroup) as raised:
        async with serving(respx.Router(base_url=UPSTREAM)) as (_, pool):
            for _ in range(2):
                await pool.request("GET", "/nope", {}, None, QUICK)
    assert raised.group_contains(AllMockedAssertionError)


# --- stopping ---------------------------------------------------------------------------


async def test_it_stops_cleanly_with_calls_held_running_and_streaming(router: respx.Router) -> None:
    cancelled = asyncio.Event()
    never = asyncio.Event()

    async def slow(_: httpx.Request) -> httpx.Response:
        try:
            await asyncio.sleep(30)
        finally:
            cancelled.set()
        return httpx.Response(200)

    async def endless() -> AsyncIterator[bytes]:
        yield b"start"
        await never.wait()
        yield b"never"

    router.get("/held").mock(side_effect=httpx.ReadTimeout("slow"))
    router.get("/slow").mock(side_effect=slow)
    router.get("/stream").mock(return_value=httpx.Response(200, content=endless()))
    router.get("/ok").mock(return_value=httpx.Response(200))
    patient = Timeouts(connect=1.0, read=30.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        started = time.monotonic()
        async with RespxPlatform(router) as platform:
            pool = Pool(platform.url)
            held = asyncio.create_task(pool.request("GET", "/held", {}, None, patient))
            running = asyncio.create_task(pool.request("GET", "/slow", {}, None, patient))
            streamed = await pool.stream("GET", "/stream", {}, None, patient)
            await pool.request("GET", "/ok", {}, None, QUICK)  # and one idle connection
            await asyncio.sleep(0.1)
            assert platform.connections == 4
        results = await asyncio.gather(held, running, return_exceptions=True)
        assert [type(r) for r in results] == [httpx.ReadError, httpx.ReadError]
        with pytest.raises(httpx.ReadError):
            async for _ in streamed.stream:
                pass
        await streamed.aclose()
        await pool.aclose()
        assert cancelled.is_set() and time.monotonic() - started < 2
        gc.collect()
    assert [str(w.message) for w in caught] == []
    others = {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}
    assert not [t for t in others if "respx_platform" in repr(t.get_coro())]
