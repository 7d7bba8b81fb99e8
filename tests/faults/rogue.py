"""An upstream that misbehaves at the TCP and HTTP level, as real platforms sometimes do:
resets, answers cut short, bodies that trickle, garbage instead of HTTP, silence."""

from __future__ import annotations

import asyncio
import functools
import socket
import struct
import threading
import zlib
from collections.abc import Awaitable, Callable

BODY = b'{"success":true,"values":[]}'


async def _read_request(reader: asyncio.StreamReader) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            await reader.readexactly(int(line.split(b":", 1)[1]))


def _reset(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


async def ok(writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
    await writer.drain()


async def reset(writer: asyncio.StreamWriter) -> None:
    _reset(writer)


async def close(writer: asyncio.StreamWriter) -> None:
    writer.close()


async def half(writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" + BODY[:10])
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.close()


async def half_reset(writer: asyncio.StreamWriter) -> None:
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" + BODY[:10])
    await writer.drain()
    await asyncio.sleep(0.05)
    _reset(writer)


async def trickle(writer: asyncio.StreamWriter) -> None:
    """A byte every 0.3 s: no single read times out, only the end-to-end deadline can stop it."""
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
    for _ in range(1000):
        writer.write(b" ")
        await writer.drain()
        await asyncio.sleep(0.3)


async def silent(writer: asyncio.StreamWriter) -> None:
    await asyncio.sleep(60)


async def garbage(writer: asyncio.StreamWriter) -> None:
    writer.write(b"SSH-2.0-OpenSSH_9.2\r\n\x00\x01\x02 not http at all\r\n\r\n")
    await writer.drain()
    writer.close()


Behaviour = Callable[[asyncio.StreamWriter], Awaitable[None]]


class RogueUpstream:
    """Listens on a free port in its own thread; `behaviour` says how the next calls go."""

    def __init__(self) -> None:
        self.behaviour: Behaviour = ok
        self.calls = 0
        self.loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(10)

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self._server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        started.set()
        self.loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                await _read_request(reader)
                self.calls += 1
                behaviour = self.behaviour
                await behaviour(writer)
                if behaviour is not ok:
                    return
        except (asyncio.IncompleteReadError, asyncio.CancelledError, ConnectionError, OSError):
            pass
        finally:
            if not writer.is_closing():
                writer.close()

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        pending = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


BOMB_MB = 100


@functools.cache
def _gzip_zeros(megabytes: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # a gzip stream
    chunk = b"0" * (1024 * 1024)
    return b"".join(compressor.compress(chunk) for _ in range(megabytes)) + compressor.flush()


async def gzip_bomb(writer: asyncio.StreamWriter) -> None:
    """About 100 kB on the wire, 100 MB once inflated."""
    bomb = _gzip_zeros(BOMB_MB)
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
        b"Content-Length: %d\r\n\r\n%b" % (len(bomb), bomb)
    )
    await writer.drain()


BIG = (
    b'{"data":[{"id":1,"routerLink":"/promotions","status":"active","locale":"es","heroBanner":{"url":"/b.webp"},'
    b'"notes":"' + b"x" * (2 * 1024 * 1024) + b'"}]}'
)
"""Home banners of 2 MB that keep the contract (an unknown field carries the bulk)."""


async def big(writer: asyncio.StreamWriter) -> None:
    """A 2 MB answer: within what the gateway reads whole, over what it may share through Redis."""
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%b" % (len(BIG), BIG))
    await writer.drain()
