"""What compressing costs per request, for a 30 kB JSON (issue 30): gzip level 1 against brotli
quality 1 to 4, with the levels used for bytes compressed once (gzip 9, brotli 10 and 11) beside
them, inflating a gzip answer (what reading a platform's compressed answer costs), and the other
per-request work of `gateway.http.compression` (negotiating `Accept-Encoding`, the digest behind
an ETag, reading `If-None-Match`).

The body is the sandbox's sports events answer in Spanish (`/sbapi/sports/events?lang=es`, about
32 kB), the largest JSON the home page loads. One process, one core; each case runs in several
rounds, the rounds interleaved so every case sees the same machine, the median reported (CPU
time of this process, microseconds per call). Writes bench/results/compression.json and prints a
table. Run by `make bench`; `BENCH_ROUNDS` changes the rounds.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import brotli
from litestar.testing import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.http.compression import ON_THE_FLY, STORED, Coding, Levels, compress, digest, matches, negotiate
from sandbox.app import create_app

RESULTS = Path(__file__).resolve().parent / "results" / "compression.json"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CHROME = "gzip, deflate, br, zstd"


def sports_events() -> bytes:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the test client's line per request
    with TestClient(create_app()) as sandbox:
        answer = sandbox.get("/sbapi/sports/events?lang=es", headers={"siteid": "aurora"})
        answer.raise_for_status()
        return answer.content


def per_call_us(work: Callable[[], object], budget_s: float = 0.25) -> float:
    """CPU microseconds per call of `work`, over about `budget_s` of calls."""
    calls, started = 0, time.process_time()
    while (spent := time.process_time() - started) < budget_s:
        for _ in range(10):
            work()
        calls += 10
    return spent / calls * 1e6


def cases(body: bytes) -> dict[str, tuple[Callable[[], object], int | None]]:
    """Each case: the work, and the bytes it sends (None: it sends nothing of its own)."""
    found: dict[str, tuple[Callable[[], object], int | None]] = {}
    for level in (1, 6, 9):
        found[f"gzip level {level}"] = _compressing(body, "gzip", Levels(gzip=level, br=0))
    for quality in (1, 2, 3, 4, 5, 10, 11):
        found[f"brotli quality {quality}"] = _compressing(body, "br", Levels(gzip=0, br=quality))
    packed = compress(body, "gzip", ON_THE_FLY)
    found["inflate gzip level 1 (a passed-through answer, read)"] = (
        lambda: zlib.decompressobj(47).decompress(packed),
        None,
    )
    tag = '"' + digest(body) + '-gzip"'
    found["negotiate Accept-Encoding (Chrome's, memoised)"] = (lambda: negotiate(CHROME), None)
    found["negotiate Accept-Encoding (a new value each time)"] = (_fresh_negotiation(), None)
    found["digest of the identity bytes (ETag)"] = (lambda: digest(body), None)
    found["If-None-Match against the ETag"] = (lambda: matches(f'W/"x", {tag}', tag), None)
    return found


def _compressing(body: bytes, coding: Coding, levels: Levels) -> tuple[Callable[[], object], int]:
    return (lambda: compress(body, coding, levels)), len(compress(body, coding, levels))


def _fresh_negotiation() -> Callable[[], object]:
    counter = iter(range(10**9))
    return lambda: negotiate(f"gzip;q=0.{next(counter) % 1000:03d}, deflate, br, zstd")


def main() -> None:
    body = sports_events()
    assert gzip.decompress(compress(body, "gzip", ON_THE_FLY)) == body
    assert brotli.decompress(compress(body, "br", ON_THE_FLY)) == body
    work = cases(body)
    rounds: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(ROUNDS):
        for name, (call, _) in work.items():
            rounds[name].append(per_call_us(call))
    rows: dict[str, Any] = {}
    for name, (_, sent) in work.items():
        rows[name] = {"us_per_call": round(statistics.median(rounds[name]), 1)}
        if sent is not None:
            rows[name] |= {"bytes": sent, "ratio": round(sent / len(body), 3)}
    result = {
        "body": "sandbox /sbapi/sports/events?lang=es",
        "body_bytes": len(body),
        "rounds": ROUNDS,
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average": os.getloadavg()[0],
        "on_the_fly": {"gzip": ON_THE_FLY.gzip, "br": ON_THE_FLY.br},
        "stored": {"gzip": STORED.gzip, "br": STORED.br},
        "rows": rows,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{len(body):,} bytes of JSON, median of {ROUNDS} rounds, load average {result['load_average']:.1f}")
    print(f"{'case':<52} {'us/call':>9} {'bytes':>8} {'ratio':>6}")
    for name, row in rows.items():
        print(f"{name:<52} {row['us_per_call']:>9.1f} {row.get('bytes', ''):>8} {row.get('ratio', ''):>6}")


if __name__ == "__main__":
    main()
