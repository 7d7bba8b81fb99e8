"""Serving the built SPA: hashed assets cached for good, `index.html` for every client
route (never cached), and the page's security headers with the skin's frame hosts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from litestar import Request, Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

from gateway.errors import error_response
from gateway.runtime import Gateway, RequestContext
from gateway.security import page_headers

# Files of spa/public served as they are: root files (favicon, robots...) and the static
# lobby pages (lobby/lobbyflash.html, lobby/tableflash.html and their script and style).
PUBLIC_FILE = re.compile(
    r"^(?:[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.(?:ico|png|svg|txt|webmanifest|json|xml)"
    r"|lobby/[a-z]+\.(?:html|css|js))$"
)
API_PREFIXES = ("/bff/", "/api/", "/capi/", "/sbapi/", "/rest/", "/_sandbox/")


async def _nosniff(response: Response[Any]) -> Response[Any]:
    response.headers["x-content-type-options"] = "nosniff"
    return response


def spa_handlers(dist: Path) -> list[Any]:
    assets = create_static_files_router(
        path="/assets",
        directories=[dist / "assets"],
        name="assets",
        cache_control=CacheControlHeader(max_age=31536000, public=True, immutable=True),
        after_request=_nosniff,
        include_in_schema=False,
    )
    index_cache: dict[str, bytes] = {}

    @get(["/", "/{path:path}"], include_in_schema=False, sync_to_thread=False)
    def document(request: Request[Any, Any, Any]) -> Response[Any]:
        gateway: Gateway = request.app.state.gateway
        ctx = RequestContext.of(request)
        path = request.scope["path"]
        if path.startswith(API_PREFIXES):
            return error_response(404, "NOT_FOUND", "No such route", ctx)
        skin = gateway.skin_for(request)
        if skin is None:
            return error_response(404, "UNKNOWN_SITE", "This site is not configured here", ctx)
        headers = page_headers([*skin.frame_hosts], gateway.settings.production)
        name = path.lstrip("/")
        if PUBLIC_FILE.match(name) and (dist / name).is_file():
            body, media_type = (dist / name).read_bytes(), None
            headers["cache-control"] = "public, max-age=3600"
        else:
            if "index" not in index_cache:
                index = dist / "index.html"
                if not index.is_file():
                    return error_response(
                        503, "SPA_NOT_BUILT", "The player site is not built (make run builds it)", ctx
                    )
                index_cache["index"] = index.read_bytes()
            body, media_type = index_cache["index"], "text/html; charset=utf-8"
            headers["cache-control"] = "no-cache"
        return Response(body, media_type=media_type or _media_type(name), headers=headers)

    return [Router(path="/", route_handlers=[assets, document])]


def _media_type(name: str) -> str:
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
    }.get(suffix, "application/octet-stream")
