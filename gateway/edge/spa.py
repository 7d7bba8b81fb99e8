"""Serving the built SPA: hashed assets cached for good, `index.html` for every client route
(revalidated on every use), the public files, and the page's security headers with the skin's
frame hosts. Each travels brotli- or gzip-compressed as the browser accepts, with a strong ETag
per encoding, and a browser whose copy is current gets 304 (`gateway.http.compression`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from litestar import Request, Router, get
from litestar.di import NamedDependency
from litestar.params import FromPath

from contracts.catalogue import PREFIXES
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.compression import Coding, Packed, Variants, headers_digest, represent
from gateway.http.errors import error
from gateway.http.security import page_headers

# Files of spa/public served as they are: root files (favicon, robots...) and the static
# lobby pages (lobby/lobbyflash.html, lobby/tableflash.html and their script and style).
PUBLIC_FILE = re.compile(
    r"^(?:[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.(?:ico|png|svg|txt|webmanifest|json|xml)"
    r"|lobby/[a-z]+\.(?:html|css|js))$"
)
API_PREFIXES = ("/bff/", *PREFIXES, "/_sandbox/")
# Vite's hashed build files: one name, no folders.
ASSET = re.compile(r"^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2|json)$")
IMMUTABLE = "public, max-age=31536000, immutable"
UNHASHED = "no-cache"
"""index.html and the public files keep their names from build to build: the browser keeps them
but asks each time whether they changed (a 304 of a few hundred bytes when they did not)."""


class BuiltFiles:
    """A Vite build as it is served (the player site's, the operators' console's): its hashed
    assets, and its unhashed files (index.html, the public files)."""

    # Hand-written rather than Litestar's static files router, which has no precompressed
    # variants: the build writes `<asset>.br` and `<asset>.gz` once (spa/vite.shared.ts), and this
    # serves the one the browser accepts, so the gateway never compresses a script per request.
    # The files of a build never change (hashed names), so each is read from disk once.
    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self._assets: dict[str, Variants] = {}
        # index.html (the entry stylesheet inlined, ~27 kB) and the public files, compressed once.
        self._packed = Packed()

    def asset(self, request: Request[Any, Any, Any], name: str, headers: dict[str, str] | None = None) -> Outgoing:
        ctx = RequestContext.of(request.scope)
        variants = self._assets.get(name)
        if variants is None:
            file = self.dist / "assets" / name
            if not ASSET.match(name) or not file.is_file():
                return error(404, "NOT_FOUND", "No such file", ctx)
            variants = self._assets[name] = _built(file)
        sent = {**(headers or {}), "cache-control": IMMUTABLE, "x-content-type-options": "nosniff"}
        return represent(variants, Incoming.of(request.scope).headers, media_type(name), ctx, sent)

    def serve_unhashed(self, request: Request[Any, Any, Any], name: str, headers: dict[str, str]) -> Outgoing | None:
        """index.html or a public file, revalidated on every use; None when it is not there (not
        built, or a build emptying the folder right now)."""
        try:  # read each time (cheap beside a page view): a rebuilt site is served without a restart
            body = (self.dist / name).read_bytes()
        except OSError:
            return None
        kind, sent = media_type(name), {**headers, "cache-control": UNHASHED}
        variants = self._packed.variants(name, body, kind)
        # headers that change apart from the page (a skin's CSP hosts): its ETag names them
        signed, ctx = headers_digest(sent), RequestContext.of(request.scope)
        return represent(variants, Incoming.of(request.scope).headers, kind, ctx, sent, signed)


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
        if not (PUBLIC_FILE.match(name) and (dist / name).is_file()):
            name = "index.html"
        page = files.serve_unhashed(request, name, headers)
        if page is None:
            return error(503, "SPA_NOT_BUILT", "The player site is not built (make run builds it)", ctx)
        return page

    return [Router(path="/", route_handlers=[asset, document])]


def _built(file: Path) -> Variants:
    """A build file and the compressed copies the build wrote beside it (none for images)."""
    beside: dict[Coding, Path] = {"br": file.with_name(file.name + ".br"), "gzip": file.with_name(file.name + ".gz")}
    return Variants(file.read_bytes(), {coding: path.read_bytes() for coding, path in beside.items() if path.is_file()})


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
