"""The proxied answers as few bytes as they can be (issue 30, second step): content kept
compressed once and sent as stored, with a strong ETag per encoding and 304s; personal reads
compressed as they are sent and never kept; secret-bearing answers never compressed; nothing of
the browser's reaches the platform on a cached route; a lying or bursting upstream is a 502."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from typing import Any

import brotli
import httpx
import pytest
import respx

from contracts.catalogue import ROUTES, SECRET_ANSWER_NAMES, SECRET_ANSWERS
from gateway.http import compression, stored
from gateway.store.address import SharedRedis
from gateway.upstream.transport import MAX_BODY
from tests.support.browser import AsyncBrowser
from tests.support.cluster import RedisServer
from tests.support.cms import banners
from tests.support.encodings import Raw, decoded
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio

BANNERS = "/capi/home-banners"
CHROME = "gzip, deflate, br, zstd"
BIG = banners(*range(200))
BIG_BYTES = json.dumps(BIG).encode()
HOSTILE_ENCODINGS = [
    "",
    ",,,",
    ";q=1",
    "br;q=2",
    "br;q=abc",
    "*;q=0",
    "identity;q=0, *;q=0",
    "\xff\xfe",
    "gzip;;;;q",
    ", ".join(["x"] * 500),
    '"br"',
]
GARBAGE_TAGS = ["", "*garbage", '"unterminated', "W/", ",,,", '"a"' * 300, "\xff", "null"]


async def fetch(visitor: AsyncBrowser, path: str, method: str = "GET", **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as they crossed the wire (httpx would decode it). No
    `accept_encoding` given: the request has no `Accept-Encoding` at all."""
    sent = {name.replace("_", "-"): value.encode("latin-1") for name, value in headers.items()}
    if method == "POST":
        sent.update({name: value.encode() for name, value in visitor.xsrf().items()})
    request = visitor.client.build_request(method, path, headers=sent, json={} if method == "POST" else None)
    if "accept-encoding" not in sent:
        del request.headers["accept-encoding"]
    response = await visitor.client.send(request, stream=True)
    try:
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
    finally:
        await response.aclose()
    return response, raw


def content(upstream: respx.Router, body: bytes = BIG_BYTES, **headers: str) -> list[httpx.Request]:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, stream=Raw(body), headers={"content-type": "application/json", **headers})

    upstream.get(BANNERS).mock(side_effect=answer)
    return seen


@pytest.mark.parametrize(("accept", "coding"), [(CHROME, "br"), ("gzip", "gzip"), ("identity", None), (None, None)])
async def test_content_travels_as_stored_byte_for_byte(
    visitor: AsyncBrowser, upstream: respx.Router, accept: str | None, coding: str | None
) -> None:
    content(upstream)
    asked = {"accept_encoding": accept} if accept is not None else {}
    miss, raw_miss = await fetch(visitor, BANNERS, **asked)
    hit, raw_hit = await fetch(visitor, BANNERS, **asked)
    assert (miss.headers["x-cache"], hit.headers["x-cache"]) == ("MISS", "HIT")
    for response, raw in ((miss, raw_miss), (hit, raw_hit)):
        assert response.headers.get("content-encoding") == coding
        assert decoded(response, raw) == BIG_BYTES, "byte for byte"
        assert response.headers["vary"] == "accept-encoding"
        assert response.headers["cache-control"] == "no-cache", "the browser keeps it and asks each time"
    assert miss.headers["etag"] == hit.headers["etag"]
    if coding is not None:
        assert len(raw_hit) < len(BIG_BYTES) / 4


async def test_a_platforms_vary_on_accept_encoding_is_named_once(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    """nginx's `gzip_vary` puts `Vary: Accept-Encoding` on every answer it may compress."""
    content(upstream, vary="Accept-Encoding")
    for _ in range(2):  # the miss, then the stored copy
        response, _raw = await fetch(visitor, BANNERS, accept_encoding="gzip")
        named = [name.strip().lower() for name in response.headers["vary"].split(",")]
        assert named == ["accept-encoding"], response.headers["vary"]


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codings compressed from now on (a stored copy's and on the fly), in order."""
    made: list[str] = []
    real = compression.compress

    def counted(body: bytes, coding: Any, levels: Any) -> bytes:
        made.append(coding)
        return real(body, coding, levels)

    monkeypatch.setattr(stored, "compress", counted)
    monkeypatch.setattr(compression, "compress", counted)
    return made


async def test_a_hit_sends_the_stored_bytes_without_compressing(
    visitor: AsyncBrowser, upstream: respx.Router, monkeypatch: pytest.MonkeyPatch
) -> None:
    content(upstream)
    await fetch(visitor, BANNERS, accept_encoding=CHROME)
    made = counting(monkeypatch)
    for accept in (CHROME, "gzip", CHROME):
        hit, raw = await fetch(visitor, BANNERS, accept_encoding=accept)
        assert hit.headers["x-cache"] == "HIT" and decoded(hit, raw) == BIG_BYTES
    assert made == [], "no compression on a hit"


async def test_304_only_for_the_same_encodings_tag(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    seen = content(upstream)
    br, _ = await fetch(visitor, BANNERS, accept_encoding=CHROME)
    gz, _ = await fetch(visitor, BANNERS, accept_encoding="gzip")
    plain, _ = await fetch(visitor, BANNERS)
    assert len({br.headers["etag"], gz.headers["etag"], plain.headers["etag"]}) == 3, "one strong ETag per encoding"

    again, raw = await fetch(visitor, BANNERS, accept_encoding=CHROME, if_none_match=br.headers["etag"])
    assert again.status_code == 304 and raw == b"" and again.headers["etag"] == br.headers["etag"]
    assert again.headers["vary"] == "accept-encoding" and again.headers["cache-control"] == "no-cache"
    assert "content-length" not in again.headers and "content-encoding" not in again.headers

    other, raw = await fetch(visitor, BANNERS, accept_encoding=CHROME, if_none_match=gz.headers["etag"])
    assert other.status_code == 200 and brotli.decompress(raw) == BIG_BYTES, "a gzip copy is not the brotli one"
    switched, raw = await fetch(visitor, BANNERS, accept_encoding="gzip", if_none_match=br.headers["etag"])
    assert switched.status_code == 200 and gzip.decompress(raw) == BIG_BYTES
    for garbage in GARBAGE_TAGS:
        whole, raw = await fetch(visitor, BANNERS, accept_encoding="gzip", if_none_match=garbage)
        assert whole.status_code == 200 and gzip.decompress(raw) == BIG_BYTES, garbage
    assert len(seen) == 1


async def test_a_copy_filled_for_one_encoding_serves_each_client_its_own(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    """Filled by a brotli browser; a gzip-only client, a client that accepts nothing and a
    client that refuses brotli each get what they accepted, never the filler's bytes."""
    content(upstream)
    filled, _ = await fetch(visitor, BANNERS, accept_encoding="br")
    assert filled.headers["content-encoding"] == "br" and filled.headers["x-cache"] == "MISS"
    for accept, coding in (("gzip", "gzip"), ("identity", None), ("br;q=0, gzip", "gzip"), ("deflate", None)):
        response, raw = await fetch(visitor, BANNERS, accept_encoding=accept)
        assert response.headers["x-cache"] == "HIT"
        assert response.headers.get("content-encoding") == coding, accept
        assert decoded(response, raw) == BIG_BYTES


@pytest.mark.parametrize("accept", HOSTILE_ENCODINGS)
async def test_a_malformed_accept_encoding_still_gets_a_correct_answer(
    visitor: AsyncBrowser, upstream: respx.Router, accept: str
) -> None:
    content(upstream)
    for _ in range(2):  # a miss, then a hit
        response, raw = await fetch(visitor, BANNERS, accept_encoding=accept)
        assert response.status_code == 200 and decoded(response, raw) == BIG_BYTES


async def test_small_and_binary_content_travels_as_it_came(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    content(upstream, b'{"data":[]}')
    small, raw = await fetch(visitor, BANNERS, accept_encoding=CHROME)
    assert "content-encoding" not in small.headers and raw == b'{"data":[]}' and small.headers["etag"]
    picture = b"\x89PNG\r\n" + bytes(range(256)) * 20
    upstream.get("/capi/uploads/hero.png").mock(
        return_value=httpx.Response(
            200, content=picture, headers={"content-type": "image/png", "cache-control": "public, max-age=86400"}
        )
    )
    image, raw = await fetch(visitor, "/capi/uploads/hero.png", accept_encoding=CHROME)
    assert image.status_code == 200 and raw == picture and "content-encoding" not in image.headers
    assert image.headers["cache-control"] == "public, max-age=86400" and image.headers["etag"]


async def test_no_header_outside_the_key_reaches_the_platform_on_a_cached_route(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    seen = content(upstream)
    browsers = {
        "user-agent": "Mozilla/5.0 (iPhone)",
        "accept": "image/avif,*/*",
        "accept-language": "pt-BR",
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
        "x-request-id": "browser-chosen-id",
        "if-none-match": '"whatever"',
        "if-modified-since": "Tue, 24 Nov 2026 10:00:00 GMT",
        "x-custom": "1",
        "authorization": "Bearer x",
        "referer": "https://evil.example/",
        "accept-encoding": "br",
        "origin": "https://aurora.test",
    }
    await visitor.client.get(BANNERS + "?lang=pt", headers=browsers)
    (call,) = seen
    sent = dict(call.headers)
    assert set(sent) <= {"host", "siteid", "user-agent", "accept", "accept-encoding", "x-request-id"}
    assert sent["user-agent"] == "casino-bff" and sent["accept"] == "*/*" and sent["accept-encoding"] == "gzip"
    assert sent["x-request-id"] != "browser-chosen-id", "the gateway's own id for the flight"
    assert "cookie" not in sent and "wsession" not in sent


async def test_the_platforms_gzip_is_inflated_and_kept_compressed(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    content(upstream, gzip.compress(BIG_BYTES), **{"content-encoding": "gzip"})
    for accept in (CHROME, "gzip", None):
        response, raw = await fetch(visitor, BANNERS, **({"accept_encoding": accept} if accept else {}))
        assert decoded(response, raw) == BIG_BYTES


@pytest.mark.parametrize("lie", ["gzip", "br", "deflate", "zstd"])
async def test_an_upstream_lying_about_its_encoding_is_a_502_for_that_call(
    visitor: AsyncBrowser, upstream: respx.Router, lie: str
) -> None:
    content(upstream, BIG_BYTES, **{"content-encoding": lie})
    response, raw = await fetch(visitor, BANNERS, accept_encoding=CHROME)
    assert response.status_code == 502 and json.loads(raw)["code"] == "UPSTREAM_FAILED"
    upstream.get("/capi/header-links").mock(return_value=httpx.Response(200, json={"data": []}))
    assert (await visitor.get("/capi/header-links")).status_code == 200, "the next call is fine"


async def test_a_decompression_bomb_is_refused(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = b"".join(squeezer.compress(b"0" * (1024 * 1024)) for _ in range(MAX_BODY // (1024 * 1024) + 2))
    content(upstream, bomb + squeezer.flush(), **{"content-encoding": "gzip"})
    response, _ = await fetch(visitor, BANNERS, accept_encoding=CHROME)
    assert response.status_code == 502


@pytest.mark.parametrize("accept", [CHROME, "gzip", None])
async def test_a_personal_read_names_accept_encoding_once(upstream: respx.Router, accept: str | None) -> None:
    """The platform's `Vary: Accept-Encoding` (nginx's `gzip_vary`) and the gateway's are one."""
    upstream.post("/api/cashier/balance").mock(
        return_value=httpx.Response(200, json=BIG, headers={"vary": "Accept-Encoding"})
    )
    async with browser_on(gateway_app(upstream)) as player:
        await player.start()
        await player.login()
        asked = {"accept_encoding": accept} if accept is not None else {}
        response, _raw = await fetch(player, "/api/cashier/balance", "POST", **asked)
    assert [name.strip().lower() for name in response.headers["vary"].split(",")] == ["accept-encoding"]


async def test_a_personal_read_is_compressed_as_sent_and_never_kept(upstream: respx.Router) -> None:
    answers = iter(range(1, 10))

    def balance(request: httpx.Request) -> httpx.Response:
        mine = next(answers)
        return httpx.Response(200, json={**BIG, "owner": mine}, headers={"cache-control": "public, max-age=600"})

    calls = upstream.post("/api/cashier/balance").mock(side_effect=balance)
    app = gateway_app(upstream)
    async with browser_on(app) as one, browser_on(app) as two:
        for player in (one, two):
            await player.start()
            await player.login()
        first, raw_one = await fetch(one, "/api/cashier/balance", "POST", accept_encoding=CHROME)
        second, raw_two = await fetch(two, "/api/cashier/balance", "POST", accept_encoding="gzip")
        plain, raw_plain = await fetch(one, "/api/cashier/balance", "POST")
    assert first.headers["content-encoding"] == "br" and second.headers["content-encoding"] == "gzip"
    assert json.loads(brotli.decompress(raw_one))["owner"] == 1
    assert json.loads(gzip.decompress(raw_two))["owner"] == 2, "never the other session's answer"
    assert json.loads(raw_plain)["owner"] == 3 and "content-encoding" not in plain.headers
    for response in (first, second, plain):
        assert response.headers["cache-control"] == "private, no-store", "never kept by a shared cache"
        assert response.headers["vary"] == "accept-encoding" and "etag" not in response.headers
    assert calls.call_count == 3


async def test_a_secret_bearing_answer_is_never_compressed(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    launch = {"success": True, "url": "https://games.example/launch?token=" + "s3cr3t" * 400, "gameId": "g1"}
    upstream.post("/rest/game/launch").mock(return_value=httpx.Response(200, json=launch))
    await visitor.login()
    response, raw = await fetch(visitor, "/rest/game/launch", "POST", accept_encoding=CHROME)
    assert response.status_code == 200 and len(raw) > 2048
    assert "content-encoding" not in response.headers and json.loads(raw)["url"] == launch["url"]
    assert response.headers["cache-control"] == "private, no-store"


async def test_an_answer_setting_a_cookie_is_never_compressed(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    """Login sets the gateway's cookies (the session rotated) and echoes the login name."""
    upstream.post("/api/player/login").mock(
        return_value=httpx.Response(200, json={**BIG, "success": True, "sessionId": "UPSTREAM-SID-1"})
    )
    response = await visitor.client.post(
        "/api/player/login",
        json={"login": "demo1", "password": "demo123"},
        headers={**visitor.xsrf(), "accept-encoding": CHROME},
    )
    assert "set-cookie" in response.headers and "content-encoding" not in response.headers
    assert response.json()["data"] == BIG["data"] and "sessionId" not in response.json()


def test_every_secret_answer_is_a_catalogue_fact() -> None:
    names = {route.name for route in ROUTES}
    assert SECRET_ANSWER_NAMES - names == set(), "a secret answer names a route that does not exist"
    assert {route.name for route in ROUTES if route.secret_answer} == SECRET_ANSWERS
    assert SECRET_ANSWER_NAMES <= SECRET_ANSWERS
    assert {"login", "register", "logout", "sportsAuth", "buy", "Mbuy", "genericLaunch"} <= SECRET_ANSWERS


async def test_with_redis_the_copy_is_stored_compressed_and_served_by_another_instance(
    upstream: respx.Router, redis_server: RedisServer
) -> None:
    """Two instances on one Redis: the first keeps the copy compressed (brotli and gzip, no
    identity bytes: the store holds a fraction of the answer), the second serves it from Redis
    byte for byte in each encoding; a personal answer is never in Redis."""
    seen = content(upstream)
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={**BIG, "owner": "demo1"}))
    with redis_server.client() as client:
        client.flushall()
    redis = SharedRedis(url=redis_server.url)
    first, second = gateway_app(upstream, shared_redis=redis), gateway_app(upstream, shared_redis=redis)
    async with browser_on(first) as one, browser_on(second) as two:
        filled, _ = await fetch(one, BANNERS, accept_encoding="br")
        assert filled.headers["x-cache"] == "MISS"
        with redis_server.client() as client:
            (key,) = [
                key
                for key in client.scan_iter(match="*cache:/capi/home-banners*")
                if b"refresh" not in key and b"~" not in key
            ]
            kept = client.get(key)
        assert kept is not None and len(kept) < len(BIG_BYTES) / 3, "kept compressed, without its identity bytes"
        for accept in (CHROME, "gzip", None):
            response, raw = await fetch(two, BANNERS, **({"accept_encoding": accept} if accept else {}))
            assert response.headers["x-cache"] == "HIT" and decoded(response, raw) == BIG_BYTES
        tag = filled.headers["etag"]
        again, raw = await fetch(two, BANNERS, accept_encoding="br", if_none_match=tag)
        assert again.status_code == 304 and raw == b"", "the same strong ETag on every instance"
        await one.start()
        await one.login()
        personal, _ = await fetch(one, "/api/cashier/balance", "POST", accept_encoding="gzip")
        assert personal.headers["cache-control"] == "private, no-store"
        with redis_server.client() as client:
            stored = [key for key in client.scan_iter(match="*cache:*") if b"refresh" not in key and b"~" not in key]
        assert stored == [key], "only the content copy"
    assert len(seen) == 1


PLATFORM_GZIP = gzip.compress(BIG_BYTES, compresslevel=6, mtime=0)


async def test_a_reads_gzip_passes_through_as_it_came(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    """Nothing in the gateway reads the open withdrawals: the platform's gzip reaches a browser that
    accepts gzip byte for byte, as it came; one that does not gets it inflated (or in brotli)."""
    withdrawals = upstream.post("/api/cashier/getOpenWithdrawRequests").mock(
        return_value=httpx.Response(
            200, stream=Raw(PLATFORM_GZIP), headers={"content-encoding": "gzip", "content-type": "application/json"}
        )
    )
    await visitor.login()
    passed, raw = await fetch(visitor, "/api/cashier/getOpenWithdrawRequests", "POST", accept_encoding="gzip, deflate")
    assert passed.headers["content-encoding"] == "gzip" and raw == PLATFORM_GZIP, "not inflated and compressed again"
    assert passed.headers["vary"] == "accept-encoding" and passed.headers["cache-control"] == "private, no-store"
    assert withdrawals.calls.last.request.headers["accept-encoding"] == "gzip"
    for accept, coding in (("br", "br"), ("identity", None), (None, None)):
        response, raw = await fetch(
            visitor, "/api/cashier/getOpenWithdrawRequests", "POST", **({"accept_encoding": accept} if accept else {})
        )
        assert response.headers.get("content-encoding") == coding and decoded(response, raw) == BIG_BYTES


async def test_a_passed_through_session_expired_still_ends_the_session(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    expired = {"success": False, "code": "SESSION_EXPIRED", "description": "Session expired", "pad": "x" * 3000}
    upstream.post("/api/cashier/getOpenWithdrawRequests").mock(
        return_value=httpx.Response(
            200,
            stream=Raw(gzip.compress(json.dumps(expired).encode())),
            headers={"content-encoding": "gzip", "content-type": "application/json"},
        )
    )
    await visitor.login()
    assert (await visitor.client.get("/bff/session")).json()["loggedIn"] is True
    response = await visitor.post("/api/cashier/getOpenWithdrawRequests")
    assert response.json()["code"] == "SESSION_EXPIRED"
    assert (await visitor.client.get("/bff/session")).json()["loggedIn"] is False, "the session ended"


@pytest.mark.parametrize("body", ["garbage", "bomb", "cut"])
async def test_a_read_lying_about_its_gzip_is_a_502_for_that_call(
    visitor: AsyncBrowser, upstream: respx.Router, body: str
) -> None:
    if body == "bomb":
        squeezer = zlib.compressobj(9, zlib.DEFLATED, 31)
        sent = b"".join(squeezer.compress(b"0" * (1024 * 1024)) for _ in range(MAX_BODY // (1024 * 1024) + 2))
        sent += squeezer.flush()
    else:
        sent = BIG_BYTES if body == "garbage" else PLATFORM_GZIP[: len(PLATFORM_GZIP) // 2]
    upstream.post("/api/cashier/getOpenWithdrawRequests").mock(
        return_value=httpx.Response(200, stream=Raw(sent), headers={"content-encoding": "gzip"})
    )
    await visitor.login()
    response, raw = await fetch(visitor, "/api/cashier/getOpenWithdrawRequests", "POST", accept_encoding="gzip")
    assert response.status_code == 502 and json.loads(raw)["code"] == "UPSTREAM_FAILED"
    withdrawals = "/api/cashier/getOpenWithdrawRequests"
    upstream.post(withdrawals).mock(return_value=httpx.Response(200, json={"success": True}))
    assert (await visitor.post(withdrawals)).json() == {"success": True}, "the next call is fine"


async def test_joined_misses_compress_the_copy_once(
    visitor: AsyncBrowser, upstream: respx.Router, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.1)
        return httpx.Response(200, content=BIG_BYTES, headers={"content-type": "application/json"})

    calls = upstream.get(BANNERS).mock(side_effect=slow)
    made = counting(monkeypatch)
    answers = await asyncio.gather(*(fetch(visitor, BANNERS, accept_encoding=CHROME) for _ in range(8)))
    assert calls.call_count == 1 and all(brotli.decompress(raw) == BIG_BYTES for _, raw in answers)
    assert sorted(made) == ["br", "gzip"], "one copy made for the eight"
