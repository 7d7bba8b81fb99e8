"""HTTP/1.1 written by hand on a socket: requests no client library would send, and single
requests from a chosen source address cheap enough for thousands of visitors."""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass

import httpx


@dataclass
class RawAnswer:
    data: bytes
    seconds: float
    timed_out: bool

    @property
    def statuses(self) -> list[int]:
        """The status of every response on the connection, in order."""
        return [int(line.split(b" ")[1]) for line in self.data.split(b"\r\n") if line.startswith(b"HTTP/1.")]

    @property
    def status(self) -> int:
        return self.statuses[0]

    @property
    def head(self) -> str:
        return self.data.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()


def raw(url: str, data: bytes, *, source: str = "127.0.0.1", timeout: float = 10.0) -> RawAnswer:
    """Sends `data` from `source`, reads until the server closes or `timeout` passes."""
    target = httpx.URL(url)
    started = time.monotonic()
    with socket.create_connection((target.host, target.port or 80), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(data)
        out = b""
        timed_out = False
        try:
            while chunk := s.recv(65536):
                out += chunk
        except TimeoutError:
            timed_out = True
        except ConnectionResetError:
            pass
    return RawAnswer(out, time.monotonic() - started, timed_out)


def request(method: str, target: str, host: str, headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


@dataclass
class Exchanged:
    """One answer read whole by `exchange`."""

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
) -> Exchanged:
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
    return Exchanged(int(text.split(" ", 2)[1]), text, rest)
