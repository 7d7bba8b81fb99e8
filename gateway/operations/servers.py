"""The uvicorn server both ways of serving use: one process (gateway/operations/cli.py) and the
supervisor of `--workers N` (gateway/operations/workers.py). Its own module so that neither of
those imports the other for it."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Iterator

import uvicorn


class OwnedServer(uvicorn.Server):
    """A uvicorn server that leaves signals to its owner, which stops the servers in order and
    lets the process exit 0; `on_started` runs once it serves."""

    on_started: Callable[[], None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.on_started is not None:
            self.on_started()
