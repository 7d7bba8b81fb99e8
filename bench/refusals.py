"""CPU per proxied answer of reading the platform's refusal (`pipeline/observe.refusal`), which runs on
every read and exclusive answer below 5xx: the cost of counting `{"success": false, "code": ...}`.

`python bench/refusals.py` prints microseconds per call, median of 7 rounds of 20,000 (CPU time), for
a balance answer (0.7 kB, `success: true`), a 30 kB answer with `success: true` first, an answer with
no `success` key at all, and a `SESSION_EXPIRED` refusal (the only one that gets decoded). Not part of
`make bench`; the figures go to the docs by hand.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from gateway.pipeline.observe import refusal

WALLET = {"wallet": {"id": 1, "name": "INR"}, "symbol": "INR", "preferred": False, "cash": {"value": 120.5}}
ANSWERS = {
    "balance, success: true (0.7 kB)": json.dumps({"success": True, "code": None, "values": [WALLET] * 6}).encode(),
    "history, success: true (30 kB)": json.dumps({"success": True, "values": ["x" * 50] * 560}).encode(),
    "providers, no success key (0.7 kB)": json.dumps([{"name": f"p{i}", "status": True} for i in range(24)]).encode(),
    "SESSION_EXPIRED refusal": json.dumps({"success": False, "code": "SESSION_EXPIRED", "description": "x"}).encode(),
}
ROUNDS, CALLS = 7, 20_000


def per_call_us(body: bytes) -> float:
    times = []
    for _ in range(ROUNDS):
        started = time.process_time()
        for _ in range(CALLS):
            refusal(body)
        times.append((time.process_time() - started) / CALLS * 1e6)
    return statistics.median(times)


if __name__ == "__main__":
    for name, body in ANSWERS.items():
        print(f"{name:40} {per_call_us(body):6.2f} us  ({refusal(body)})")
