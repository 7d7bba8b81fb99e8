"""Checkouts of the gateway side by side, in one run: before and after a change.

    .venv/bin/python bench/compare.py BEFORE_DIR [AFTER_DIR ...]   (no AFTER_DIR: this checkout)

The same fixed upstream, the bare aiohttp proxy as the yardstick, and for each checkout a
gateway (one process, in memory) running from its own directory with its own virtualenv:
the logged-in POST read and the content hit at 64 connections, rounds interleaved so both
see the same machine (bench/throughput.py's rules: servers on core 0, wrk on core 1).
Prints medians and each gateway's ratio to the aiohttp proxy; writes nothing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import throughput as tp


def gateway_from(checkout: Path, name: str, work: Path, upstream: tp.Server) -> tp.Server:
    port = tp.free_port()
    env = {
        "SKINS_FILE": str(tp.skins_file(work, upstream.url, 1)),
        "SECRET_KEY": "bench-secret-key",
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "info",
    }
    python = str(checkout / ".venv" / "bin" / "python")
    return tp.start(name, [python, "-m", "gateway", "--port", str(port)], port, work, env, cwd=checkout)


def labelled(checkouts: list[Path]) -> list[tuple[str, Path]]:
    """`before` and `after` for two checkouts; each one's folder name (then its place) for more."""
    if len(checkouts) == 2:
        return [("before", checkouts[0]), ("after", checkouts[1])]
    names = [path.name for path in checkouts]
    return [
        (name if names.count(name) == 1 else f"{name}-{i}", path)
        for i, (name, path) in enumerate(zip(names, checkouts, strict=True))
    ]


def main(checkouts: list[Path]) -> None:
    tp.ensure_tools()
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp, tp.servers() as running:
        work = Path(tmp)
        upstream = tp.fixed_upstream(work)
        running.append(upstream)
        port = tp.free_port()
        ceiling = tp.start(
            "aiohttp-proxy",
            [tp.PYTHON, str(tp.ROOT / "bench" / "aiohttp_proxy.py"), str(port), upstream.url],
            port,
            work,
        )
        running.append(ceiling)
        gateways = {
            label: gateway_from(path, f"gateway-{label}", work, upstream) for label, path in labelled(checkouts)
        }
        running += gateways.values()
        plain = tp.lua_script(work, "plain", "POST", "/api/cashier/balance", None, False)
        cases = [tp.Case("aiohttp proxy c64", ceiling, plain, 64)]
        for label, server in gateways.items():
            players = tp.log_in_players(server.url, 64, work / f"{label}.sessions")
            post = tp.lua_script(work, f"post-{label}", "POST", "/api/cashier/balance", players, False)
            hit = tp.lua_script(work, f"hit-{label}", "GET", "/capi/home-banners", None, False)
            cases += [
                tp.Case(f"{label}: POST read c64", server, post, 64),
                tp.Case(f"{label}: content hit c64", server, hit, 64),
            ]
        rows = tp.interleaved(cases)
    yardstick = rows["aiohttp proxy c64"]["rps"]
    for name, row in rows.items():
        print(
            f"{name:28} {row['rps']:>9} req/s  p99 {row['p99_ms']:>6} ms  {row['cpu_us_per_request']:>6} us/req"
            f"  {row['rps'] / yardstick:.2f}x aiohttp  rounds {row['all_rps']}"
        )


if __name__ == "__main__":
    here = Path(__file__).resolve().parents[1]
    given = [Path(arg).resolve() for arg in sys.argv[1:]]
    main(given if len(given) > 1 else [*given, here])
