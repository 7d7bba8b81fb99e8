"""What the canary stage (`gateway.canary.routing.CanaryStage`) and the per-side figures cost a
proxied request, in process, per call: with no canary on the skin (every request of a skin not
being changed), with a live canary on another upstream, for a pinned player and for a visitor on
the canary's upstream; and one count of a side's figures on the access path.

    .venv/bin/python bench/canary_routing.py

The stage's run never awaits unless it ends a session, so each call is driven by hand (one
`send`), without an event loop's cost in the figure. Prints nanoseconds per call (the best of
several repeats, `timeit`'s advice); writes nothing. The end-to-end figure of a request with the
stage in place, against the checkout before it, is `bench/compare.py`'s (docs/canary-routing.md).
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts.catalogue import ROUTES_BY_NAME
from gateway.canary.figures import CanaryFigures
from gateway.canary.model import DEFAULT_STEPS, Canary, Thresholds
from gateway.canary.routing import CanaryStage
from gateway.config.skins import builtin
from gateway.http.asgi import Incoming, RequestContext
from gateway.http.clients import TrustedProxies
from gateway.pipeline.exchange import Exchange
from gateway.state.session import Session, SessionData, Sessions, new_id
from gateway.store.memory import MemoryShared, ProcessStore

NUMBER, REPEAT = 200_000, 7


class Board:
    def __init__(self, canary: Canary | None) -> None:
        self.canaries = {canary.skin: canary} if canary is not None else {}

    def current(self, skin: str) -> Canary | None:
        return self.canaries.get(skin)


def per_call_ns(call: Callable[[], Any]) -> float:
    return min(timeit.repeat(call, number=NUMBER, repeat=REPEAT)) / NUMBER * 1e9


class Empty:
    """A stage that does nothing: what driving one costs (the coroutine, its `send`, its end)."""

    async def run(self, x: Exchange) -> None:
        return None


def driven(stage: CanaryStage | Empty, x: Exchange) -> Callable[[], None]:
    def once() -> None:
        try:  # noqa: SIM105 (contextlib.suppress costs more than the stage it would time)
            stage.run(x).send(None)
        except StopIteration:
            pass

    return once


def main() -> None:
    skin = builtin("http://sandbox.test").all[0]
    base = skin.upstreams.base("api")
    live = Canary(
        id="bench", skin=skin.id, upstream="api", before=base, after="http://new.test", steps=list(DEFAULT_STEPS),
        thresholds=Thresholds(), started=1.0,
    )  # fmt: skip
    memory = MemoryShared()
    sessions = Sessions(ProcessStore(memory, "bff:sessions:"), memory)
    route = ROUTES_BY_NAME["balance"]
    scope = {"method": "POST", "path": route.path, "query_string": b"", "headers": [(b"cookie", b"bff=" + b"k" * 43)]}

    def exchange(data: SessionData) -> Exchange:
        x = Exchange(Incoming(scope, None), RequestContext("r"), skin, route, address="10.0.0.1")
        x.session = Session(new_id(), data, b"stored")
        return x

    player = SessionData(wsession="W", created=2.0)
    pinned = SessionData(wsession="W", created=2.0, pins={"api": "http://new.test"}, canary="bench")
    cases = {
        "no canary on the skin": (Board(None), player),
        "canary on another upstream": (Board(msgspec.structs.replace(live, upstream="capi")), player),
        "pinned player, canary's upstream": (Board(live), pinned),
        "visitor, canary's upstream": (Board(live), SessionData(created=2.0)),
    }
    print(f"{'an empty stage (driving it)':36} {per_call_ns(driven(Empty(), exchange(player))):8.0f} ns/call")
    for name, (board, data) in cases.items():
        stage = CanaryStage(board, sessions, "bff", TrustedProxies([]))
        print(f"{name:36} {per_call_ns(driven(stage, exchange(data))):8.0f} ns/call")
    figures = CanaryFigures(None, lambda work: None)
    counted = RequestContext("r", route="balance", upstream_status=200)
    counted.canary = ("bench", "new")
    figures.add(counted, 200, 0.01)  # its slot made once
    print(f"{'a side counted (access path)':36} {per_call_ns(lambda: figures.add(counted, 200, 0.01)):8.0f} ns/call")
    idle = RequestContext("r", route="balance")
    print(f"{'no side (access path)':36} {per_call_ns(lambda: figures.add(idle, 200, 0.01)):8.0f} ns/call")


if __name__ == "__main__":
    main()
