"""A reader of `/bff/events` as a browser's EventSource sees it, in a thread of its own."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass(frozen=True)
class ServerEvent:
    kind: str
    id: str | None
    data: str
    comment: bool = False

    def json(self) -> Any:
        return json.loads(self.data)


class EventReader:
    """Opens the stream with `cookies` (a player's), then collects what arrives: events, and
    heartbeat comments (`comment=True`); `closed` once the server ended the stream."""

    def __init__(self, url: str, cookies: httpx.Cookies | None = None, headers: dict[str, str] | None = None) -> None:
        self.client = httpx.Client(base_url=url, cookies=cookies, timeout=httpx.Timeout(10, read=60))
        self.items: queue.Queue[ServerEvent] = queue.Queue()
        self.opened = threading.Event()
        self.closed = threading.Event()
        self.status = 0
        self.headers: httpx.Headers = httpx.Headers()
        self.body = b""
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._read, args=(headers or {},), daemon=True)
        self._thread.start()
        assert self.opened.wait(10), "the stream did not answer"

    def _read(self, headers: dict[str, str]) -> None:
        try:
            with self.client.stream("GET", "/bff/events", headers={"accept": "text/event-stream", **headers}) as r:
                self._response = r
                self.status, self.headers = r.status_code, r.headers
                if r.status_code != 200:
                    self.body = r.read()
                    self.opened.set()
                    return
                self.opened.set()
                self._parse(r)
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.closed.set()

    def _parse(self, r: httpx.Response) -> None:
        kind, event_id, data = "message", None, []
        for line in r.iter_lines():
            if line.startswith(":"):
                self.items.put(ServerEvent("comment", None, line[1:].strip(), comment=True))
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif line.startswith("retry:"):
                self.items.put(ServerEvent("retry", None, line[6:].strip()))
            elif line == "" and data:
                self.items.put(ServerEvent(kind, event_id, "\n".join(data)))
                kind, event_id, data = "message", None, []

    def next(self, kind: str = "balance", within_s: float = 5.0) -> ServerEvent:
        """The next item of `kind` (others arriving meanwhile are passed over)."""
        deadline = threading.Event()
        timer = threading.Timer(within_s, deadline.set)
        timer.start()
        try:
            while not deadline.is_set():
                try:
                    item = self.items.get(timeout=0.05)
                except queue.Empty:
                    continue
                if item.kind == kind:
                    return item
            raise AssertionError(f"no {kind} event within {within_s} s")
        finally:
            timer.cancel()

    def drain(self) -> list[ServerEvent]:
        """What arrived and was not read yet."""
        found: list[ServerEvent] = []
        with contextlib.suppress(queue.Empty):
            while True:
                found.append(self.items.get_nowait())
        return found

    def close(self) -> None:
        if self._response is not None:
            with contextlib.suppress(Exception):
                self._response.close()
        self._thread.join(5)
        self.client.close()

    def __enter__(self) -> EventReader:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
