"""CPU per content cache hit's answer (`pipeline/caching.cached_copy`), in this process: the part of a hit
issue 30 changed, measured apart from a shared machine's load (wrk's rows move by a third there).

`python bench/copy_cost.py` from a checkout (this one, or another: `cd /tmp/before && python
/path/to/bench/copy_cost.py`) prints, for a 0.2 kB banners answer and a 28 kB games list, asked
with no `Accept-Encoding`, with gzip and with Chrome's: microseconds of CPU per `copy()`, median of
7 rounds of 20,000. Not part of `make bench` (the throughput rows are the product's figures).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path.cwd()))

try:
    from gateway.pipeline.caching import cached_copy as copy
except ImportError:  # a checkout from before issue 28 named it copy
    from gateway.pipeline.caching import copy  # type: ignore[attr-defined,no-redef]
from gateway.state.cache import CacheConfig, ContentCache
from gateway.state.outcome import Outcome
from gateway.store.memory import MemoryShared

SMALL = json.dumps({"data": [{"id": i, "title": f"Banner {i}", "status": "active"} for i in range(4)]}).encode()
BIG = json.dumps(
    {
        "success": True,
        "data": [
            {"id": i, "name": f"Game {i}", "provider": "pragmaticplay", "image": f"/capi/uploads/g{i}.webp"}
            for i in range(300)
        ],
    }
).encode()


def per_copy(body: bytes, accept_encoding: str | None) -> float:
    cache = ContentCache(MemoryShared(), CacheConfig())
    headers = {"content-type": "application/json", "cache-control": "public, max-age=30"}
    try:  # the route's cache facts (issue 28); a checkout from before took its name
        from contracts.catalogue import ROUTES_BY_NAME

        caching: object = ROUTES_BY_NAME["homeBanners"].cache
    except (ImportError, AttributeError):
        caching = "homeBanners"
    entry = cache.entry(caching, Outcome(200, headers, body))  # type: ignore[arg-type]
    assert entry is not None
    asked = {"host": "aurora.test", "user-agent": "wrk"}
    if accept_encoding is not None:
        asked["accept-encoding"] = accept_encoding
    x: object = SimpleNamespace(incoming=SimpleNamespace(headers=asked), ctx=SimpleNamespace(dedup=None, cache=None))
    runs = []
    for _ in range(7):
        started = time.process_time()
        for _ in range(20_000):
            copy(cache, x, entry, "HIT")  # type: ignore[arg-type]
        runs.append((time.process_time() - started) / 20_000 * 1e6)
    return statistics.median(runs)


def main() -> None:
    for name, body in (("banners", SMALL), ("games list", BIG)):
        for accept in (None, "gzip", "gzip, deflate, br, zstd"):
            print(f"{name:10} {len(body):>6} B  Accept-Encoding {accept!s:24} {per_copy(body, accept):6.2f} us")


if __name__ == "__main__":
    main()
