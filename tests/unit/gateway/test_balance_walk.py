"""The walk of a balance read (docs/architecture.md, "The walk of a balance read"): a logged-in
player's `POST /api/cashier/balance`, traced through an in-process gateway and its connection
pool, enters no gateway module more than twice.

How it counts, as the section says: a module is entered each time a call passes into it from
another gateway module (or from the event loop), on the request's own path (its task and the
tasks it starts); a return is no entry, nor is a call within the module. Not counted: calls into
the standard library and third-party code, a coroutine or callback the event loop starts counted
where it was made (a task's coroutine where it was created, a nested function where it is
defined), and reads of the request's own records: a synchronous method or property of
`RECORDS` that calls no further into the gateway (an attribute read in all but syntax).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections import Counter
from pathlib import Path
from types import CoroutineType, FrameType
from typing import Any

import httpx
import pytest
import respx

from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio

GATEWAY = str(Path(__file__).resolve().parents[3] / "gateway") + "/"
RECORDS = frozenset(
    {"Exchange", "Incoming", "Outgoing", "RequestContext", "Session", "SessionData", "Skin", "Route", "Outcome"}
    | {"Answer"}
)
"""The request's records, as the stages pass them along and read them."""
CO_COROUTINE = 0x80
WALKING: contextvars.ContextVar[bool] = contextvars.ContextVar("walking", default=False)


def module_of(frame: FrameType | None) -> str | None:
    name = frame.f_code.co_filename if frame is not None else ""
    return "gateway/" + name[len(GATEWAY) :] if name.startswith(GATEWAY) else None


class Walk:
    """The gateway modules a request enters, in order, from a profile hook (`sys.setprofile`)."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []
        self._frames: dict[int, tuple[FrameType, int | None]] = {}
        """Each gateway frame seen (kept alive, so its id stays its own), with its entry's index."""
        self._made_in: dict[int, str] = {}
        """A coroutine's frame, by id, and the module that made it."""
        self._record_reads: set[int] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not WALKING.get():
            return
        if event == "return" and isinstance(arg, CoroutineType) and (made := module_of(frame)) is not None:
            self._made_in[id(arg.cr_frame)] = made
        if event != "call" or id(frame) in self._frames or (module := module_of(frame)) is None:
            return  # a coroutine resumed is no new entry
        caller, above = self._caller(frame)
        within = self._frames[id(above)][1] if above is not None and id(above) in self._frames else None
        if caller == module:
            self._frames[id(frame)] = (frame, within)
            return
        index = len(self.entries)
        self.entries.append((module, frame.f_code.co_qualname))
        self._frames[id(frame)] = (frame, index)
        if frame.f_code.co_qualname.split(".")[0] in RECORDS and not frame.f_code.co_flags & CO_COROUTINE:
            self._record_reads.add(index)
        if within is not None:
            self._record_reads.discard(within)  # what it was called from calls further: no mere read

    def _caller(self, frame: FrameType) -> tuple[str | None, FrameType | None]:
        """The module the call came from, and the nearest gateway frame above it."""
        above = frame.f_back
        while above is not None and module_of(above) is None:
            above = above.f_back
        if above is not None:
            return module_of(above), above
        if id(frame) in self._made_in:
            return self._made_in[id(frame)], None
        if "<locals>" in frame.f_code.co_qualname:
            return module_of(frame), None  # a callback defined where it was registered
        return None, None

    def counted(self) -> list[tuple[str, str]]:
        return [entry for i, entry in enumerate(self.entries) if i not in self._record_reads]


async def walk_of_a_balance_read(upstream: respx.Router) -> list[tuple[str, str]]:
    """The entries of a logged-in player's balance poll on `upstream` (the mocked platform of
    tests/unit/gateway/conftest.py), on a kept-alive connection: the player signed in and polled
    once before."""
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"success": True, "values": []}))
    async with browser_on(gateway_app(upstream)) as browser:
        await browser.start()
        await browser.login()
        assert (await browser.post("/api/cashier/balance")).status_code == 200
        walk = Walk()

        async def traced() -> httpx.Response:
            WALKING.set(True)
            sys.setprofile(walk)
            try:
                return await browser.post("/api/cashier/balance")
            finally:
                sys.setprofile(None)

        answer = await asyncio.create_task(traced())
        assert answer.status_code == 200
        assert answer.json() == {"success": True, "values": []}
    return walk.counted()


async def test_a_balance_read_enters_no_module_more_than_twice(upstream: respx.Router) -> None:
    entries = await walk_of_a_balance_read(upstream)
    modules = [module for module, _ in entries]
    assert modules[0] == "gateway/edge/entry.py" and "gateway/upstream/transport/pool.py" in modules
    over = {module: n for module, n in Counter(modules).items() if n > 2}
    walk = "\n".join(f"{module} {function}" for module, function in entries)
    assert not over, f"entered more than twice: {over}\n{walk}"
