"""Serving the built SPA: hashed assets cached for good, `index.html` for every client
route (never cached), and the page's security headers with the skin's frame hosts."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

from litestar import Request, Router, get
from litestar.di import NamedDependency
from litestar.params import FromPath

from gateway.config.skins import Skin
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import error
from gateway.http.security import page_headers

# Files of spa/public served as they are: root files (favicon, robots...) and the static
# lobby pages (lobby/lobbyflash.html, lobby/tableflash.html and their script and style).
PUBLIC_FILE = re.compile(
    r"^(?:[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.(?:ico|png|svg|txt|webmanifest|json|xml)"
    r"|lobby/[a-z]+\.(?:html|css|js))$"
)
API_PREFIXES = ("/bff/", "/api/", "/capi/", "/sbapi/", "/rest/", "/_sandbox/")
# Vite's hashed build files: one name, no folders.
ASSET = re.compile(r"^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2|json)$")
IMMUTABLE = "public, max-age=31536000, immutable"


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether `Accept-Encoding` allows gzip (named or `*`, and not with q=0)."""
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            quality = params.replace(" ", "").removeprefix("q=")
            return not (params and quality in ("0", "0.0", "0.00", "0.000"))
    return False


class BuiltFiles:
    """A Vite build served as it is: hashed assets read from disk once (with the `<asset>.gz` the
    build wrote, for browsers that accept gzip) and its `index.html` read and gzipped once."""

    # Hand-written rather than Litestar's static files router, which has no precompressed
    # variants: the build writes `<asset>.gz` once (spa/vite.shared.ts), and this serves it to
    # browsers that accept gzip, so the gateway never compresses a script per request. The
    # files of a build never change (hashed names), so each is read from disk once.
    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self._assets: dict[str, tuple[bytes, bytes | None]] = {}
        self._index: tuple[bytes, bytes] | None = None

    def asset(self, request: Request[Any, Any, Any], name: str, headers: dict[str, str] | None = None) -> Outgoing:
        ctx = RequestContext.of(request.scope)
        cached = self._assets.get(name)
        if cached is None:
            file = self.dist / "assets" / name
            if not ASSET.match(name) or not file.is_file():
                return error(404, "NOT_FOUND", "No such file", ctx)
            packed = file.with_name(f"{name}.gz")
            cached = self._assets[name] = (file.read_bytes(), packed.read_bytes() if packed.is_file() else None)
        raw, gzipped = cached
        sent = {**(headers or {}), "cache-control": IMMUTABLE, "x-content-type-options": "nosniff",
                "vary": "accept-encoding"}  # fmt: skip
        if gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
            sent["content-encoding"] = "gzip"
            return Outgoing.page(200, gzipped, media_type(name), ctx, sent)
        return Outgoing.page(200, raw, media_type(name), ctx, sent)

    def index(self, request: Request[Any, Any, Any], headers: dict[str, str]) -> Outgoing | None:
        """`index.html` (never cached by the browser, gzipped when accepted); None when not built."""
        if self._index is None:
            if not (self.dist / "index.html").is_file():
                return None
            self._index = _packed(self.dist / "index.html")
        page, packed = self._index
        sent = {**headers, "cache-control": "no-cache", "vary": "accept-encoding"}
        if accepts_gzip(request.headers.get("accept-encoding", "")):
            sent["content-encoding"] = "gzip"
            page = packed
        return Outgoing.page(200, page, "text/html; charset=utf-8", RequestContext.of(request.scope), sent)


def spa_handlers(dist: Path, production: bool) -> list[Any]:
    files = BuiltFiles(dist)

    @get("/assets/{name:str}", include_in_schema=False, sync_to_thread=False)
    def asset(request: Request[Any, Any, Any], name: FromPath[str]) -> Outgoing:
        return files.asset(request, name)

    @get(["/", "/{path:path}"], include_in_schema=False, sync_to_thread=False)
    def document(request: Request[Any, Any, Any], skin: NamedDependency[Skin | None]) -> Outgoing:
        ctx = RequestContext.of(request.scope)
        path = request.scope["path"]
        if path.startswith(API_PREFIXES):
            return error(404, "NOT_FOUND", "No such route", ctx)
        if skin is None:
            return error(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
        ctx.skin = skin.id  # page views per skin in the access log and metrics
        headers = page_headers([*skin.frame_hosts], production, [*skin.payment_hosts])
        name = path.lstrip("/")
        if PUBLIC_FILE.match(name) and (dist / name).is_file():
            headers["cache-control"] = "public, max-age=3600"
            return Outgoing.page(200, (dist / name).read_bytes(), media_type(name), ctx, headers)
        page = files.index(request, headers)
        if page is None:
            return error(503, "SPA_NOT_BUILT", "The player site is not built (make run builds it)", ctx)
        return page

    return [Router(path="/", route_handlers=[asset, document])]


def _packed(file: Path) -> tuple[bytes, bytes]:
    page = file.read_bytes()
    return page, gzip.compress(page, compresslevel=9, mtime=0)


def media_type(name: str) -> str:
    suffix = name.rsplit(".", 1)[-1]
    return {
        "ico": "image/x-icon",
        "png": "image/png",
        "svg": "image/svg+xml",
        "txt": "text/plain; charset=utf-8",
        "webmanifest": "application/manifest+json",
        "json": "application/json",
        "xml": "application/xml",
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "woff2": "font/woff2",
    }.get(suffix, "application/octet-stream")
