"""The operators' console page (the build of spa/console.html in `spa/dist-console/`), served on
the admin listener only: `/admin` and its views' paths get `index.html`, `/admin/assets/*` the
hashed files. The public listener serves `spa/dist/`, which holds nothing of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from gateway.edge.spa import BuiltFiles
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import error

# The console's own scripts and styles only: no inline code, no other origin, never framed.
CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}
# Admin paths that are the API's, never a view of the console: unknown ones are 404 JSON.
API_PATHS = ("/admin/api", "/admin/status", "/admin/reload", "/admin/skins")


def console_pages(dist: Path) -> list[Any]:
    """The page and its assets; public (`opt`): the page asks for a session itself."""
    files = BuiltFiles(dist)

    @get("/admin/assets/{name:str}", opt={"public": True}, include_in_schema=False, sync_to_thread=False)
    def asset(request: Request[Any, Any, Any], name: FromPath[str]) -> Outgoing:
        return files.asset(request, name, {"cross-origin-resource-policy": "same-origin"})

    @get(["/admin", "/admin/{path:path}"], opt={"public": True}, include_in_schema=False, sync_to_thread=False)
    def page(request: Request[Any, Any, Any]) -> Outgoing:
        ctx = RequestContext.of(request.scope)
        path = request.scope["path"].rstrip("/")
        if any(path == api or path.startswith(api + "/") for api in API_PATHS) or path.startswith("/admin/assets"):
            return error(404, "NOT_FOUND", "No such route", ctx)
        page = files.serve_unhashed(request, "index.html", dict(HEADERS))
        if page is None:
            return error(503, "CONSOLE_NOT_BUILT", "The console is not built (make run builds spa/dist-console)", ctx)
        return page

    return [asset, page]
