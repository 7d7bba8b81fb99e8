"""The Python ceiling: the barest aiohttp reverse proxy (server and pooled client), nothing else.

`python bench/aiohttp_proxy.py PORT UPSTREAM` forwards every request's method, path, query and
body to UPSTREAM and returns status, content type and body. No session, no checks, no logging.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import aiohttp
import uvloop
from aiohttp import web


async def _client(app: web.Application) -> AsyncIterator[None]:  # cleanup context: one pooled client
    app["client"] = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=60), auto_decompress=False
    )
    yield
    await app["client"].close()


def make_app(upstream: str) -> web.Application:
    async def forward(request: web.Request) -> web.Response:
        body = await request.read()
        client: aiohttp.ClientSession = request.app["client"]
        headers = {"content-type": request.headers.get("content-type", "application/json")}
        async with client.request(request.method, upstream + request.path_qs, data=body, headers=headers) as reply:
            payload = await reply.read()
            return web.Response(body=payload, status=reply.status, content_type=reply.content_type)

    app = web.Application()
    app.cleanup_ctx.append(_client)
    app.router.add_route("*", "/{tail:.*}", forward)
    return app


if __name__ == "__main__":
    port, upstream = int(sys.argv[1]), sys.argv[2].rstrip("/")
    uvloop.install()
    web.run_app(make_app(upstream), host="127.0.0.1", port=port, access_log=None, print=None)
