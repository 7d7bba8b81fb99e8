"""Dedup and content-cache figures (issue 7), measured on loopback against the sandbox.

- 1000 identical concurrent balance reads of one logged-in player -> platform calls counted,
  with one gateway (memory; target 1) and with three gateways sharing Redis (the reads spread
  over them; reads join per instance, target at most 3);
- a steady content load (200 req/s for 10 s over 8 content paths) -> cache hit ratio
  (target >= 99%).

Run by `make bench`; writes bench/results/scale.json.
"""

from __future__ import annotations

import asyncio
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import yarl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.cluster import Cluster, start_cluster

RESULTS = Path(__file__).resolve().parent / "results"


async def _login(session: aiohttp.ClientSession, base: str) -> str:
    async with session.get(base + "/bff/session") as response:
        await response.read()
    token = session.cookie_jar.filter_cookies(yarl.URL(base)).get("XSRF-TOKEN")
    headers = {"X-XSRF-TOKEN": token.value if token else ""}
    async with session.post(
        base + "/api/player/login", json={"login": "demo1", "password": "demo123"}, headers=headers
    ) as response:
        assert (await response.json())["success"]
    token = session.cookie_jar.filter_cookies(yarl.URL(base)).get("XSRF-TOKEN")
    return token.value if token else ""


async def identical_reads(cluster: Cluster, instances: int, n: int = 1000) -> dict[str, Any]:
    bases = [g.url for g in cluster.gateways[:instances]]
    control = cluster.sandbox.url
    connector = aiohttp.TCPConnector(limit=n)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        token = await _login(session, bases[0])
        await session.put(control + "/_sandbox/faults/balance", json={"latencyMs": 1500})
        await session.delete(control + "/_sandbox/calls")

        async def read(i: int) -> int:
            async with session.post(
                bases[i % len(bases)] + "/api/cashier/balance", json={}, headers={"X-XSRF-TOKEN": token}
            ) as response:
                body = await response.read()
                if response.status != 200 and i % 97 == 0:
                    print(response.status, body[:200])
                return response.status

        started = time.perf_counter()
        statuses = await asyncio.gather(*(read(i) for i in range(n)))
        elapsed = time.perf_counter() - started
        async with session.get(control + "/_sandbox/calls") as response:
            calls = (await response.json()).get("balance", 0)
        await session.delete(control + "/_sandbox/faults")
    by_status = {str(code): statuses.count(code) for code in sorted(set(statuses))}
    return {
        "requests": n,
        "instances": instances,
        "ok": statuses.count(200),
        "statuses": by_status,
        "upstream_calls": calls,
        "seconds": round(elapsed, 2),
    }


async def steady_content(cluster: Cluster, rate: int = 200, seconds: int = 10) -> dict[str, Any]:
    base = cluster.gateways[0].url
    paths = [
        "/capi/home-banners?filters[locale][$eq]=es",
        "/capi/home-banners?filters[locale][$eq]=pt",
        "/capi/lobby-slot-images",
        "/capi/footer-slot-images",
        "/capi/event-banners",
        "/capi/header-links",
        "/capi/games-lists?filters[gameProviderName][$eq]=mancala",
        "/sbapi/sports/events?lang=es",
    ]
    states: dict[str, int] = {}
    async with aiohttp.ClientSession() as session:
        await session.delete(cluster.sandbox.url + "/_sandbox/calls")

        async def get(path: str) -> None:
            async with session.get(base + path) as response:
                await response.read()
                state = response.headers.get("x-cache", "none")
                states[state] = states.get(state, 0) + 1

        tasks = []
        started = time.perf_counter()
        for i in range(rate * seconds):
            tasks.append(asyncio.ensure_future(get(paths[i % len(paths)])))
            await asyncio.sleep(max(0.0, started + (i + 1) / rate - time.perf_counter()))
        await asyncio.gather(*tasks)
        async with session.get(cluster.sandbox.url + "/_sandbox/calls") as response:
            calls = await response.json()
    total = sum(states.values())
    upstream = sum(v for k, v in calls.items() if " " not in k)
    return {
        "requests": total,
        "states": states,
        "hit_ratio": round(states.get("HIT", 0) / total, 4),
        "upstream_calls": upstream,
        "rate_per_s": rate,
        "seconds": seconds,
    }


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cluster = start_cluster(Path(tmp), instances=3)
        try:
            one = await identical_reads(cluster, instances=1)
            three = await identical_reads(cluster, instances=3)
            content = await steady_content(cluster)
        finally:
            cluster.stop()
    results = {
        "machine": {"python": platform.python_version(), "cpus": __import__("os").cpu_count()},
        "identical_reads_one_instance": one,
        "identical_reads_three_instances_redis": three,
        "content_steady_load": content,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "scale.json").write_text(json.dumps(results, indent=2) + "\n")
    print(
        f"1000 identical concurrent reads, 1 gateway:        {one['upstream_calls']} platform call(s), "
        f"{one['ok']} x 200 in {one['seconds']} s"
    )
    print(
        f"1000 identical concurrent reads, 3 gateways+Redis: {three['upstream_calls']} platform call(s) (<= 3), "
        f"{three['ok']} x 200 in {three['seconds']} s"
    )
    print(
        f"content cache under {content['rate_per_s']} req/s for {content['seconds']} s: "
        f"hit ratio {content['hit_ratio']:.2%} {content['states']}, {content['upstream_calls']} platform calls"
    )


if __name__ == "__main__":
    asyncio.run(main())
