"""Players and attackers on a cluster: each a browser (one cookie jar) on its own source address,
whose requests land on whichever gateway instance the test picks."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import httpx

from tests.support.cluster import Cluster


class Browser:
    """A browser on `source` (a 127.0.0.0/8 address), the XSRF token echoed on unsafe calls."""

    def __init__(self, cluster: Cluster, source: str = "127.0.0.1") -> None:
        self.urls = [g.url for g in cluster.gateways]
        self.http = httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=60)
        assert self.get(0, "/bff/session").status_code == 200

    def post(
        self, instance: int, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        token = self.http.cookies.get("XSRF-TOKEN") or ""
        sent = {"X-XSRF-TOKEN": token, **(headers or {})}
        return self.http.post(self.urls[instance] + path, json={} if body is None else body, headers=sent)

    def get(self, instance: int, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(self.urls[instance] + path, **kw)

    def login(self, login: str, password: str, instance: int = 0) -> httpx.Response:
        return self.post(instance, "/api/player/login", {"login": login, "password": password})

    def close(self) -> None:
        self.http.close()


@dataclass
class RawAnswer:
    status: int
    head: str
    body: bytes

    def cookie(self, name: str) -> str | None:
        for line in self.head.split("\r\n"):
            if line.lower().startswith("set-cookie:") and line.split(":", 1)[1].strip().startswith(name + "="):
                return line.split(":", 1)[1].strip().split(";", 1)[0].split("=", 1)[1]
        return None


async def exchange(
    url: str, source: str, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> RawAnswer:
    """One request on a fresh connection from `source`: cheap enough for thousands of visitors."""
    target = httpx.URL(url)
    reader, writer = await asyncio.open_connection(target.host, target.port, local_addr=(source, 0))
    try:
        host = headers.get("host", f"{target.host}:{target.port}")  # another skin's host name, when given
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items() if name != "host"]
        lines.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    text = head.decode("latin-1")
    return RawAnswer(int(text.split(" ", 2)[1]), text, rest)
