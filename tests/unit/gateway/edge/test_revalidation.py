"""The player site's own answers as few bytes as they can be: index.html, the build's files, the
public files and `/bff/config` travel brotli or gzip as the browser accepts, each encoding with its
strong ETag, and a browser whose copy is current gets 304 with no body."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import brotli
import httpx
import pytest
import respx

from tests.support.browser import AsyncBrowser
from tests.support.encodings import decoded
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio

CHROME = "gzip, deflate, br, zstd"
PAGE = (
    "<!doctype html><html><head><title>casino</title><style>"
    + "".join(f".c{n}{{color:#{n:06x}}}" for n in range(400))
    + "</style></head><body></body></html>"
).encode()
SCRIPT = ("export const games = [" + ",".join(f'"game-{n}"' for n in range(600)) + "];").encode()
HOSTILE = [
    "",
    ",,,",
    ";q=1",
    "br;q=2",
    "br;q=abc",
    "*;q=0",
    "identity;q=0",
    "identity;q=0, *;q=0",
    "\xff\xfe",
    "br" + ";q=0.5" * 200,
    ", ".join(["x"] * 500),
    "gzip;;;;q",
    '"br"',
]
SKIN = """
[[skins]]
id = "aurora"
site_id = "aurora"
name = "{name}"
hosts = ["testserver.local"]
currency = "INR"
frame_hosts = [{frames}]
[skins.upstreams]
api = "http://api.test"
capi = "http://capi.test"
sbapi = "http://sbapi.test"
rest = "http://rest.test"
"""
GARBAGE_TAGS = ["", "*garbage", '"unterminated', "W/", "W/x", ",,,", '"a"' * 300, "\xff", "null"]


async def fetch(visitor: AsyncBrowser, path: str, **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as it crossed the wire (httpx would decode it)."""
    sent = {name.replace("_", "-"): value.encode("latin-1") for name, value in headers.items()}
    async with visitor.client.stream("GET", path, headers=sent) as response:
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, raw


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    assets = tmp_path / "assets"
    assets.mkdir()
    (assets / "index-abc123.js").write_bytes(SCRIPT)
    (assets / "index-abc123.js.gz").write_bytes(gzip.compress(SCRIPT, 9))
    (assets / "index-abc123.js.br").write_bytes(brotli.compress(SCRIPT, quality=11))
    (assets / "older-def456.js").write_bytes(SCRIPT)  # a build from before brotli: gzip only
    (assets / "older-def456.js.gz").write_bytes(gzip.compress(SCRIPT, 9))
    (assets / "logo-aaa111.png").write_bytes(b"\x89PNG\r\n" + bytes(3000))
    (tmp_path / "index.html").write_bytes(PAGE)
    (tmp_path / "favicon.svg").write_text("<svg/>")
    (tmp_path / "lobby").mkdir()
    (tmp_path / "lobby" / "lobby.js").write_bytes(SCRIPT)
    return tmp_path


@pytest.fixture
async def site(upstream: respx.Router, dist: Path) -> AsyncIterator[AsyncBrowser]:
    async with browser_on(gateway_app(upstream, spa_dist=dist)) as visitor:
        yield visitor


@pytest.mark.parametrize(("accept", "coding"), [(CHROME, "br"), ("gzip", "gzip"), ("identity", None), ("", None)])
async def test_the_page_travels_in_the_encoding_the_browser_accepts(
    site: AsyncBrowser, accept: str, coding: str
) -> None:
    response, raw = await fetch(site, "/home", accept_encoding=accept)
    assert response.status_code == 200
    assert response.headers.get("content-encoding") == coding
    assert decoded(response, raw) == PAGE, "byte for byte"
    assert response.headers["vary"] == "accept-encoding"
    assert response.headers["cache-control"] == "no-cache", "kept, and revalidated at every use"
    assert response.headers["etag"].startswith('"') and "content-security-policy" in response.headers


async def test_a_current_copy_is_answered_304_only_in_its_own_encoding(site: AsyncBrowser) -> None:
    br, _ = await fetch(site, "/home", accept_encoding=CHROME)
    packed, _ = await fetch(site, "/profile", accept_encoding="gzip")
    plain, _ = await fetch(site, "/home", accept_encoding="identity")
    tags = {br.headers["etag"], packed.headers["etag"], plain.headers["etag"]}
    assert len(tags) == 3, "one strong ETag per encoding"

    again, raw = await fetch(site, "/games/slots", accept_encoding=CHROME, if_none_match=br.headers["etag"])
    assert again.status_code == 304 and raw == b""
    assert again.headers["etag"] == br.headers["etag"] and again.headers["vary"] == "accept-encoding"
    assert again.headers["cache-control"] == "no-cache" and "content-security-policy" in again.headers
    assert "content-length" not in again.headers and "content-type" not in again.headers

    weak, _ = await fetch(site, "/home", accept_encoding=CHROME, if_none_match=f'"x", W/{br.headers["etag"]}')
    assert weak.status_code == 304, "If-None-Match compares weakly"
    other, raw = await fetch(site, "/home", accept_encoding=CHROME, if_none_match=packed.headers["etag"])
    assert other.status_code == 200 and other.headers["content-encoding"] == "br", "a gzip copy is not the brotli one"
    assert brotli.decompress(raw) == PAGE
    star, _ = await fetch(site, "/home", accept_encoding="gzip", if_none_match="*")
    assert star.status_code == 304


async def test_the_builds_files_travel_as_the_build_compressed_them(site: AsyncBrowser) -> None:
    response, raw = await fetch(site, "/assets/index-abc123.js", accept_encoding=CHROME)
    assert response.headers["content-encoding"] == "br" and raw == brotli.compress(SCRIPT, quality=11)
    assert brotli.decompress(raw) == SCRIPT
    assert "immutable" in response.headers["cache-control"] and response.headers["vary"] == "accept-encoding"
    older, raw = await fetch(site, "/assets/older-def456.js", accept_encoding=CHROME)
    assert older.headers["content-encoding"] == "gzip" and gzip.decompress(raw) == SCRIPT
    plain, raw = await fetch(site, "/assets/index-abc123.js", accept_encoding="br;q=0, gzip;q=0")
    assert "content-encoding" not in plain.headers and raw == SCRIPT
    image, raw = await fetch(site, "/assets/logo-aaa111.png", accept_encoding=CHROME)
    assert "content-encoding" not in image.headers and "vary" not in image.headers and raw.startswith(b"\x89PNG")
    current, raw = await fetch(
        site, "/assets/index-abc123.js", accept_encoding=CHROME, if_none_match=response.headers["etag"]
    )
    assert current.status_code == 304 and raw == b""
    for missing in ("/assets/index-abc123.js.br", "/assets/index-abc123.js.gz", "/assets/nothing.js"):
        assert (await site.get(missing)).status_code == 404, missing


async def test_public_files_are_compressed_and_revalidated(site: AsyncBrowser) -> None:
    script, raw = await fetch(site, "/lobby/lobby.js", accept_encoding=CHROME)
    assert script.headers["content-encoding"] == "br" and brotli.decompress(raw) == SCRIPT
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    icon, raw = await fetch(site, "/favicon.svg", accept_encoding=CHROME)
    assert "content-encoding" not in icon.headers and raw == b"<svg/>", "under a kilobyte: as it is"
    again, raw = await fetch(site, "/favicon.svg", if_none_match=icon.headers["etag"])
    assert again.status_code == 304 and raw == b""


async def test_the_skins_config_is_revalidated_not_downloaded_again(site: AsyncBrowser) -> None:
    first, raw = await fetch(site, "/bff/config", accept_encoding=CHROME)
    assert first.status_code == 200 and b'"Aurora Casino"' in decoded(first, raw)
    assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
    again, raw = await fetch(site, "/bff/config", accept_encoding=CHROME, if_none_match=first.headers["etag"])
    assert again.status_code == 304 and raw == b"" and again.headers["etag"] == first.headers["etag"]
    pampa, _ = await fetch(site, "/bff/config", host="pampa.localhost", if_none_match=first.headers["etag"])
    assert pampa.status_code == 200 and pampa.headers["etag"] != first.headers["etag"], "each skin its own copy"


async def test_the_config_changes_its_etag_when_the_operator_changes_the_skin(
    upstream: respx.Router, dist: Path, tmp_path: Path
) -> None:
    skins_file = tmp_path / "skins.toml"
    skins_file.write_text(SKIN.format(name="Aurora Casino", frames=""))
    app = gateway_app(upstream, spa_dist=dist, skins_file=skins_file, probe_upstreams=False)
    async with browser_on(app) as visitor:
        before, _ = await fetch(visitor, "/bff/config")
        skins_file.write_text(SKIN.format(name="Aurora Casino Nueva", frames=""))
        assert (await app.gateway.config.reload("test")).result == "applied"
        after, raw = await fetch(visitor, "/bff/config", if_none_match=before.headers["etag"])
        assert after.status_code == 200 and b"Aurora Casino Nueva" in decoded(after, raw)
        assert after.headers["etag"] != before.headers["etag"]


@pytest.mark.parametrize("path", ["/home", "/assets/index-abc123.js", "/bff/config", "/lobby/lobby.js"])
async def test_hostile_conditionals_and_encodings_get_a_correct_answer(site: AsyncBrowser, path: str) -> None:
    _, whole = await fetch(site, path, accept_encoding="identity")
    for accept in HOSTILE:
        for tag in GARBAGE_TAGS:
            response, raw = await fetch(site, path, accept_encoding=accept, if_none_match=tag)
            assert response.status_code == 200, (accept, tag, response.status_code)
            assert decoded(response, raw) == whole, (accept, tag)


async def test_a_rebuilt_page_is_served_at_once_with_a_new_etag(upstream: respx.Router, dist: Path) -> None:
    (dist / "index.html").unlink()
    async with browser_on(gateway_app(upstream, spa_dist=dist)) as visitor:
        missing = await visitor.get("/home")
        assert missing.status_code == 503 and missing.json()["code"] == "SPA_NOT_BUILT"
        (dist / "index.html").write_bytes(PAGE)
        built, _ = await fetch(visitor, "/home", accept_encoding=CHROME)
        assert built.status_code == 200
        (dist / "index.html").write_bytes(PAGE.replace(b"casino", b"casino v2"))
        rebuilt, raw = await fetch(visitor, "/home", accept_encoding=CHROME, if_none_match=built.headers["etag"])
        assert rebuilt.status_code == 200 and b"casino v2" in brotli.decompress(raw)
        assert rebuilt.headers["etag"] != built.headers["etag"]


async def test_the_pages_etag_changes_when_its_security_headers_do(
    upstream: respx.Router, dist: Path, tmp_path: Path
) -> None:
    """A 304 would leave the browser with the old CSP (browsers keep some stored headers over a
    304's): an operator who lets in a new game provider's frames must reach returning players."""
    skins_file = tmp_path / "skins.toml"
    skins_file.write_text(SKIN.format(name="Aurora Casino", frames='"https://games-1.example"'))
    app = gateway_app(upstream, spa_dist=dist, skins_file=skins_file, probe_upstreams=False)
    async with browser_on(app) as visitor:
        before, _ = await fetch(visitor, "/home", accept_encoding=CHROME)
        same, _ = await fetch(visitor, "/home", accept_encoding=CHROME, if_none_match=before.headers["etag"])
        assert same.status_code == 304
        skins_file.write_text(SKIN.format(name="Aurora Casino", frames='"https://games-2.example"'))
        assert (await app.gateway.config.reload("test")).result == "applied"
        after, raw = await fetch(visitor, "/home", accept_encoding=CHROME, if_none_match=before.headers["etag"])
        assert after.status_code == 200 and "https://games-2.example" in after.headers["content-security-policy"]
        assert brotli.decompress(raw) == PAGE and after.headers["etag"] != before.headers["etag"]
