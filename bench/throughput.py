"""The gateway against nginx, side by side in one run (issue 9).

On loopback, against a fixed-response upstream (nginx `return 200` with a balance-like JSON, so
the upstream is never the bottleneck), wrk pinned to core 1 and every server under test pinned
to core 0 with one worker, each configuration measured for several rounds, the rounds
interleaved so that every configuration sees the same machine, medians reported:

- direct to the upstream; nginx as a reverse proxy (keepalive upstream); the barest aiohttp
  proxy (bench/aiohttp_proxy.py, the Python ceiling);
- the gateway with everything on (skin lookup, session, XSRF check, dedup bookkeeping, rate
  limits, access log) for a logged-in POST read, an anonymous content GET that always misses the
  cache (a new query each time) and one that always hits it; at 1 and 64 connections;
- scaling: 1 and 10 skins; 64 and 10,000 live sessions, in memory and in Redis;
- every core: `--workers 2` on Redis against one process on Redis, both allowed cores 0 and 1
  (`python bench/throughput.py workers` runs only these).

- Redis per proxied read: client round trips and commands (`redis_commands_per_request`);
  `python bench/throughput.py redis-read` measures only the memory and Redis POST read rows and
  that, and prints them.

Each row: req/s, p50, p99, CPU time per request of the server process(es), peak RSS. Writes
bench/results/throughput.json and, with scale.json and the SPA sizes, bench/RESULTS.md.
Every process it starts is stopped by PID. `BENCH_SECONDS` / `BENCH_ROUNDS` shorten it.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
PYTHON = sys.executable
SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
MANY_SESSIONS = int(os.environ.get("BENCH_SESSIONS", "10000"))
SERVER_CPU, LOAD_CPU = "0", "1"
CLK_TCK = os.sysconf("SC_CLK_TCK")

# ~600 bytes, the shape of the platform's balance answer.
BALANCE = json.dumps(
    {
        "success": True,
        "values": [
            {
                "wallet": {"id": i, "name": name},
                "symbol": symbol,
                "preferred": i == 1,
                "cash": {"value": 5000.25 * i},
                "bonus": {"value": 250.5},
                "cashInPlay": {"value": 0},
                "bonusInPlay": {"value": 0},
            }
            for i, (name, symbol) in enumerate([("INR", "Bs."), ("PLAYMONEY", "PM"), ("COMPPOINTS", "CP")], 1)
        ],
    },
    separators=(",", ":"),
)
LOGIN = json.dumps({"success": True, "sessionId": "bench-wsession-0001", "loginResponse": {"login": "bench"}})
CONTENT = json.dumps(
    {
        "data": [
            {
                "id": i,
                "title": f"Banner {i}",
                "status": "active",
                "locale": "es",
                "routerLink": "/games/slots",
                "heroBanner": {"url": f"/capi/uploads/banner-{i}.webp"},
            }
            for i in range(4)
        ],
        "meta": {"pagination": {"page": 1, "pageSize": 25, "pageCount": 1, "total": 4}},
    },
    separators=(",", ":"),
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ensure_tools() -> None:
    """nginx, wrk and redis-server from Debian when missing (the bench needs root to install)."""
    wanted = {"nginx": "nginx-light", "wrk": "wrk", "redis-server": "redis-server", "taskset": "util-linux"}
    missing = [pkg for tool, pkg in wanted.items() if not shutil.which(tool) and not Path("/usr/sbin", tool).exists()]
    if missing:
        print(f"installing {' '.join(missing)} from Debian", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, stdout=subprocess.DEVNULL)


def nginx_binary() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


# --- processes, stopped by PID --------------------------------------------------------------


@dataclass
class Server:
    name: str
    process: subprocess.Popen[bytes]
    url: str

    def pids(self) -> list[int]:
        """The process and its children (nginx's workers)."""
        children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout
        return [self.process.pid, *(int(p) for p in children.split())]

    def cpu_seconds(self) -> float:
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            total += int(fields[11]) + int(fields[12])  # utime + stime
        return total / CLK_TCK

    def peak_rss_mb(self) -> float:
        peak = 0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except FileNotFoundError:
                continue
            match = re.search(r"VmHWM:\s+(\d+) kB", status)
            peak += int(match.group(1)) if match else 0
        return round(peak / 1024, 1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def wait_http(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + float(os.environ.get("STACK_START_S", "30"))  # a loaded machine needs more
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited early:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not start")


def start(
    name: str, argv: list[str], port: int, workdir: Path, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> Server:
    log = workdir / f"{name}.log"
    process = subprocess.Popen(
        ["taskset", "-c", SERVER_CPU, *argv],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_http(url, process, log)
    return Server(name, process, url)


def nginx(name: str, workdir: Path, server_block: str, upstream_block: str = "") -> tuple[Server, int]:
    port = free_port()
    prefix = workdir / name
    (prefix / "logs").mkdir(parents=True)
    conf = prefix / "nginx.conf"
    conf.write_text(f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {prefix}/body;
  proxy_temp_path {prefix}/proxy;
  keepalive_requests 1000000;
  {upstream_block}
  server {{
    listen 127.0.0.1:{port} reuseport;
    {server_block}
  }}
}}
""")
    return start(name, [nginx_binary(), "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"], port, workdir), port


BIG_CONTENT = json.dumps(
    {
        "success": True,
        "data": [
            {
                "id": i,
                "title": f"Game {i}",
                "routerLink": f"/games/slots/{i}",
                "status": "active",
                "locale": "es",
                "LobbyImage": {"url": f"/capi/uploads/g{i}.webp"},
                "provider": "pragmaticplay",
                "tags": ["slots", "new"] if i % 3 else ["slots"],
                "rtp": 96.0 + (i % 7) / 10,
            }
            for i in range(152)
        ],
    },
    separators=(",", ":"),
)
"""About 30 kB of JSON, like a games list: a content copy kept compressed, and a read compressed
as it is sent (issue 30). Every fixed answer keeps its route's contract (the gateway refuses one
that does not as a 502: `contracts/conformance.py`)."""


GZIP_PLATFORM = os.environ.get("BENCH_UPSTREAM_GZIP") == "1"
"""`BENCH_UPSTREAM_GZIP=1`: the fixed upstream compresses its JSON as platforms are served (nginx's
`gzip on` for JSON), so the gateway inflates every answer it reads."""


def fixed_upstream(workdir: Path, compressing: bool = GZIP_PLATFORM) -> Server:
    big = workdir / "big.json"  # a file: nginx takes no 30 kB string in its configuration
    big.write_text(BIG_CONTENT)
    big.chmod(0o644)
    workdir.chmod(0o711)  # nginx's workers (nobody, under root) must reach it

    def quoted(body: str) -> str:
        return "'" + body.replace("\\", "\\\\").replace("'", "\\'") + "'"

    squeeze = "gzip on; gzip_types application/json; gzip_min_length 256; gzip_comp_level 1;" if compressing else ""
    block = f"""
    default_type application/json;
    {squeeze}
    location = /api/player/login {{ return 200 {quoted(LOGIN)}; }}
    location = /capi/lobby-slot-images {{ alias {big}; }}
    location = /api/player/getStats {{ error_page 405 =200 /big.json; return 405; }}
    location = /big.json {{ internal; alias {big}; }}
    location /capi/ {{ return 200 {quoted(CONTENT)}; }}
    location / {{ return 200 {quoted(BALANCE)}; }}
"""
    return nginx("upstream", workdir, block)[0]


def nginx_proxy(workdir: Path, upstream: Server) -> Server:
    upstream_block = f"upstream platform {{ server {upstream.url.removeprefix('http://')}; keepalive 128; }}"
    block = """
    location / {
      proxy_pass http://platform;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
"""
    return nginx("nginx-proxy", workdir, block, upstream_block)[0]


def skins_file(workdir: Path, upstream: str, count: int) -> Path:
    lines = []
    for i in range(count):
        host = '"127.0.0.1", "localhost"' if i == 0 else f'"skin{i}.bench.example"'
        lines.append(f"""
[[skins]]
id = "skin{i}"
site_id = "site{i}"
name = "Bench {i}"
hosts = [{host}]
currency = "INR"
currency_symbol = "Bs."
[skins.upstreams]
api = "{upstream}"
capi = "{upstream}"
sbapi = "{upstream}"
rest = "{upstream}"
""")
    path = workdir / f"skins-{count}.toml"
    path.write_text("".join(lines))
    return path


def gateway(
    name: str, workdir: Path, upstream: Server, skins: int = 1, redis_url: str | None = None, checkout: Path = ROOT
) -> Server:
    port = free_port()
    env = {
        "SKINS_FILE": str(skins_file(workdir, upstream.url, skins)),
        "SECRET_KEY": "bench-secret-key",
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "info",
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    return start(name, [PYTHON, "-m", "gateway", "--port", str(port)], port, workdir, env, cwd=checkout)


def redis(workdir: Path) -> tuple[Server, str]:
    port = free_port()
    server = start(
        "redis",
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        port,
        workdir,
    )
    return server, f"redis://127.0.0.1:{port}/0"


# --- sessions -------------------------------------------------------------------------------


async def _log_in_players(base: str, count: int) -> list[str]:
    """`count` players logged in through the gateway (each from its own forwarded address, so
    the per-IP login limit is not what is measured); their cookie and XSRF token, one a line."""
    lines: list[str] = []
    semaphore = asyncio.Semaphore(64)
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector):  # owns the shared connector

        async def one(i: int) -> None:
            address = f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"
            async with semaphore:
                jar = aiohttp.CookieJar(unsafe=True)
                async with aiohttp.ClientSession(connector=connector, connector_owner=False, cookie_jar=jar) as player:
                    async with player.get(base + "/bff/session") as response:
                        await response.read()
                    token = {c.key: c.value for c in jar}["XSRF-TOKEN"]
                    headers = {"X-XSRF-TOKEN": token, "X-Forwarded-For": address}
                    credentials = {"login": f"bench{i}", "password": "bench123"}
                    async with player.post(base + "/api/player/login", json=credentials, headers=headers) as response:
                        body = await response.json()
                        if response.status != 200 or not body.get("success"):
                            raise RuntimeError(f"login {i} failed: {response.status} {body}")
                    cookies = {c.key: c.value for c in jar}
                    # A browser sends both cookies back (the XSRF one is readable by the page).
                    cookie = f"bff={cookies['bff']}; XSRF-TOKEN={cookies['XSRF-TOKEN']}"
                    lines.append(f"{cookie}\t{cookies['XSRF-TOKEN']}")

        await asyncio.gather(*(one(i) for i in range(count)))
    return lines


def log_in_players(base: str, count: int, path: Path) -> Path:
    path.write_text("\n".join(asyncio.run(_log_in_players(base, count))) + "\n")
    return path


# --- wrk ------------------------------------------------------------------------------------


def lua_script(
    workdir: Path, name: str, method: str, path: str, sessions: Path | None, unique_query: bool, encoding: str = ""
) -> Path:
    """A wrk script; `encoding`: the `Accept-Encoding` it sends (none by default, as wrk)."""
    load = ""
    pick = "local h = {['Content-Type'] = 'application/json'}"
    if sessions:
        load = f"""
local sessions = {{}}
for line in io.lines("{sessions}") do
  local cookie, token = line:match("([^\\t]+)\\t([^\\t]+)")
  sessions[#sessions + 1] = {{cookie, token}}
end
"""
        pick = (
            "local s = sessions[(i % #sessions) + 1]\n"
            "  local h = {['Content-Type'] = 'application/json', ['Cookie'] = s[1], ['X-XSRF-TOKEN'] = s[2]}"
        )
    if encoding:
        pick += f"\n  h['Accept-Encoding'] = '{encoding}'"
    target = f'"{path}?n=" .. i' if unique_query else f'"{path}"'
    body = '"{}"' if method == "POST" else "nil"
    script = workdir / f"{name}.lua"
    script.write_text(f"""{load}
local i = 0
request = function()
  i = i + 1
  {pick}
  return wrk.format("{method}", {target}, h, {body})
end
""")
    return script


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def run_wrk(url: str, script: Path, connections: int, seconds: int) -> dict[str, Any]:
    argv = [
        "taskset",
        "-c",
        LOAD_CPU,
        "wrk",
        "-t1",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        "-s",
        str(script),
        url,
    ]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    latency = {
        m.group(1): float(m.group(2)) * _UNITS[m.group(3)]
        for m in re.finditer(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)$", out, re.M)
    }
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": rps,
        "requests": total,
        "p50_ms": latency.get("50"),
        "p99_ms": latency.get("99"),
        "non_2xx": int(bad.group(1)) if bad else 0,
        "socket_errors": sum(int(g) for g in errors.groups()) if errors else 0,
    }


@dataclass
class Case:
    name: str
    server: Server
    script: Path
    connections: int
    runs: list[dict[str, Any]] = field(default_factory=list)

    def measure(self, seconds: int) -> None:
        cpu_before = self.server.cpu_seconds()
        result = run_wrk(self.server.url, self.script, self.connections, seconds)
        cpu = self.server.cpu_seconds() - cpu_before
        result["cpu_us_per_request"] = round(cpu / max(result["requests"], 1) * 1e6, 1)
        self.runs.append(result)

    def summary(self) -> dict[str, Any]:
        def median(key: str) -> float:
            values = [r[key] for r in self.runs if r[key] is not None]
            return round(statistics.median(values), 3) if values else float("nan")

        return {
            "server": self.server.name,
            "connections": self.connections,
            "rounds": len(self.runs),
            "rps": round(median("rps")),
            "p50_ms": median("p50_ms"),
            "p99_ms": median("p99_ms"),
            "cpu_us_per_request": median("cpu_us_per_request"),
            "peak_rss_mb": self.server.peak_rss_mb(),
            "non_2xx": sum(r["non_2xx"] for r in self.runs),
            "socket_errors": sum(r["socket_errors"] for r in self.runs),
            "all_rps": [round(r["rps"]) for r in self.runs],
        }


def interleaved(cases: list[Case]) -> dict[str, dict[str, Any]]:
    """One warm-up second each, then `ROUNDS` rounds of every case in turn (so every case sees
    the same machine), a line per run; each case's summary by name."""
    print(f"warming up {len(cases)} cases", flush=True)
    for case in cases:
        run_wrk(case.server.url, case.script, case.connections, 1)
    for round_no in range(1, ROUNDS + 1):
        for case in cases:
            case.measure(SECONDS)
            last = case.runs[-1]
            print(
                f"round {round_no} {case.name:56} {last['rps']:>9.0f} req/s  p50 {last['p50_ms']} ms"
                f"  p99 {last['p99_ms']} ms  {last['cpu_us_per_request']} us/req",
                flush=True,
            )
    return {case.name: case.summary() for case in cases}


# --- Redis commands per proxied read (issue 23) -----------------------------------------------


def redis_commands_per_request(url: str, sessions: Path, redis_url: str, requests: int = 2000) -> dict[str, Any]:
    """What `requests` logged-in `POST /api/cashier/balance` reads (64 at a time, over the players
    in `sessions`, after one read each to warm up) cost Redis, per read: `total` from `INFO
    commandstats` (a script's own commands counted), `round_trips` from `MONITOR` (what clients
    sent: a script is one; the commands it runs, marked `lua`, are not). The presence
    connection's once-a-half-second PING is a per-instance cost, counted apart as `background`."""
    import redis as redis_py

    players = [line.split("\t") for line in sessions.read_text().splitlines() if line]

    async def reads(count: int) -> list[int]:
        semaphore = asyncio.Semaphore(64)
        async with aiohttp.ClientSession() as client:

            async def one(i: int) -> int:
                cookie, token = players[i % len(players)]
                headers = {"Cookie": cookie, "X-XSRF-TOKEN": token}
                async with semaphore, client.post(url + "/api/cashier/balance", json={}, headers=headers) as answer:
                    await answer.read()
                    return answer.status

            return await asyncio.gather(*(one(i) for i in range(count)))

    def commandstats(client: redis_py.Redis) -> dict[str, int]:
        stats: dict[str, dict[str, int]] = client.info("commandstats")
        return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}

    asyncio.run(reads(len(players)))
    client = redis_py.Redis.from_url(redis_url)
    sent: list[str] = []
    with client.monitor() as monitor:
        before = commandstats(client)
        statuses = asyncio.run(reads(requests))
        after = commandstats(client)
        client.echo("bench-monitor-end")
        for line in monitor.listen():
            if "bench-monitor-end" in str(line["command"]):
                break
            if line["client_type"] != "lua":
                sent.append(str(line["command"]).split(" ", 1)[0].upper())
    client.close()
    own = {"info", "monitor", "ping", "echo", "hello", "client|setinfo"}
    total = {k: n - before.get(k, 0) for k, n in after.items() if n > before.get(k, 0) and k not in own}
    round_trips = [c for c in sent if c not in {"INFO", "PING", "ECHO", "HELLO", "CLIENT"}]
    return {
        "requests": requests,
        "ok": statuses.count(200),
        "round_trips_per_request": round(len(round_trips) / requests, 4),
        "commands_per_request": round(sum(total.values()) / requests, 4),
        "commands": total,
        "background": {"PING": sent.count("PING")},
    }


def redis_per_read_report(per_read: dict[str, Any]) -> list[str]:
    return [
        "",
        "## Redis per proxied read (`redis_commands_per_request`, gateway with `REDIS_URL`)",
        "",
        f"- {per_read['requests']} logged-in balance reads, 64 at a time, after one read per player:"
        f" {per_read['round_trips_per_request']} client round trips and {per_read['commands_per_request']}"
        f" commands per read ({per_read['commands'] or 'none'}); the presence connection's PING in the"
        f" meantime, per instance: {per_read['background']['PING']}",
    ]


# --- every core: 2 workers against 1 process, both on Redis ------------------------------------

WORKERS_CPUS = "0,1"
"""`--workers 2` may use both cores, which wrk (core 1), the upstream and Redis (core 0) share with
it; its 1-process yardstick runs on the same cores, so the worker count is all that differs."""


def gateway_on_cores(name: str, workdir: Path, upstream: Server, redis_url: str, workers: int) -> Server:
    """A gateway on Redis with `workers` processes (1: no supervisor), allowed both cores (the
    inner taskset widens `start`'s core 0)."""
    port = free_port()
    env = {
        "SKINS_FILE": str(skins_file(workdir, upstream.url, 1)),
        "SECRET_KEY": "bench-secret-key",
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "info",
        "REDIS_URL": redis_url,
    }
    argv = ["taskset", "-c", WORKERS_CPUS, PYTHON, "-m", "gateway", "--port", str(port), "--workers", str(workers)]
    server = start(name, argv, port, workdir, env)
    time.sleep(3 if workers > 1 else 0)  # the port answers once one worker serves: let the others start
    return server


def workers_cases(workdir: Path, upstream: Server, redis_url: str, running: list[Server]) -> list[Case]:
    """ "gateway POST read c64, Redis, 2 workers" and its 1-process yardstick, same placement."""
    cases = []
    for workers, label in ((1, "1 process"), (2, "2 workers")):
        server = gateway_on_cores(f"gateway-redis-{workers}w", workdir, upstream, redis_url, workers)
        running.append(server)
        players = log_in_players(server.url, 64, workdir / f"{server.name}.sessions")
        script = lua_script(workdir, f"{server.name}-post", "POST", "/api/cashier/balance", players, False)
        cases.append(Case(f"gateway POST read c64, Redis, {label} on cores {WORKERS_CPUS}", server, script, 64))
    return cases


def workers_ratios(rows: dict[str, dict[str, Any]]) -> dict[str, float]:
    one = rows[f"gateway POST read c64, Redis, 1 process on cores {WORKERS_CPUS}"]
    two = rows[f"gateway POST read c64, Redis, 2 workers on cores {WORKERS_CPUS}"]
    return {
        "2 workers / 1 process, Redis, POST read c64 (req/s)": round(two["rps"] / one["rps"], 3),
        "2 workers / 1 process, Redis, POST read c64 (CPU per request)": round(
            two["cpu_us_per_request"] / one["cpu_us_per_request"], 3
        ),
    }


def bytes_cases(work: Path, gw: Server, sessions: Path, label: str = "") -> list[Case]:
    """Issue 30's rows: a 30 kB content copy hit with gzip accepted (sent as stored) and with no
    `Accept-Encoding` (inflated as sent), and a 30 kB personal read compressed as it is sent."""
    chrome = "gzip, deflate, br, zstd"
    big, read = "/capi/lobby-slot-images", "/api/player/getStats"
    tag = gw.name
    return [
        Case(
            f"gateway content hit c64, 30 kB, gzip accepted{label}",
            gw,
            lua_script(work, f"{tag}-big-gzip", "GET", big, None, False, "gzip"),
            64,
        ),
        Case(
            f"gateway content hit c64, 30 kB, br accepted{label}",
            gw,
            lua_script(work, f"{tag}-big-br", "GET", big, None, False, chrome),
            64,
        ),
        Case(
            f"gateway content hit c64, 30 kB, no Accept-Encoding{label}",
            gw,
            lua_script(work, f"{tag}-big-plain", "GET", big, None, False),
            64,
        ),
        Case(
            f"gateway 30 kB read c64, gzip accepted{label}",
            gw,
            lua_script(work, f"{tag}-read-gzip", "POST", read, sessions, False, "gzip"),
            64,
        ),
        Case(
            f"gateway 30 kB read c64, no Accept-Encoding{label}",
            gw,
            lua_script(work, f"{tag}-read-plain", "POST", read, sessions, False),
            64,
        ),
    ]


def main_bytes(before: Path | None) -> None:
    """`python bench/throughput.py bytes [BEFORE_CHECKOUT]`: issue 30's rows beside today's
    content hit, POST read and nginx rows, in one run; with a checkout of the code before the
    change (e.g. `git worktree add --detach /tmp/before main`), the same rows on it too. Writes
    bench/results/throughput_bytes.json."""
    ensure_tools()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp, servers() as running:
        work = Path(tmp)
        upstream = fixed_upstream(work)
        proxy = nginx_proxy(work, upstream)
        running += [upstream, proxy]
        gateways = {"": gateway("gateway", work, upstream)}
        if before is not None:
            gateways[" (before)"] = gateway("gateway-before", work, upstream, checkout=before)
        running += list(gateways.values())
        cases = [
            Case("nginx proxy c64", proxy, lua_script(work, "plain", "POST", "/api/cashier/balance", None, False), 64)
        ]
        for label, gw in gateways.items():
            sessions = log_in_players(gw.url, 64, work / f"{gw.name}.sessions")
            cases += [
                Case(
                    f"gateway POST read c64{label}",
                    gw,
                    lua_script(work, f"{gw.name}-post", "POST", "/api/cashier/balance", sessions, False),
                    64,
                ),
                Case(
                    f"gateway content hit c64{label}",
                    gw,
                    lua_script(work, f"{gw.name}-hit", "GET", "/capi/home-banners", None, False),
                    64,
                ),
                *bytes_cases(work, gw, sessions, label),
            ]
        rows = interleaved(cases)
    results = {
        "machine": machine(),
        "seconds_per_run": SECONDS,
        "rounds": ROUNDS,
        "rows": rows,
        "ratios": bytes_ratios(rows),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "throughput_bytes.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results["ratios"], indent=2))


def bytes_ratios(rows: dict[str, dict[str, Any]], label: str = "") -> dict[str, float]:
    def r(a: str, b: str) -> float:
        return round(rows[a]["rps"] / rows[b]["rps"], 3) if a in rows and b in rows and rows[b]["rps"] else float("nan")

    found = {
        "content hit 30 kB gzip / content hit (small, uncompressed), c64": r(
            "gateway content hit c64, 30 kB, gzip accepted", "gateway content hit c64"
        ),
        "content hit / nginx proxy, c64": r("gateway content hit c64", "nginx proxy c64"),
        "content hit 30 kB gzip / nginx proxy, c64": r(
            "gateway content hit c64, 30 kB, gzip accepted", "nginx proxy c64"
        ),
        "30 kB read gzip / 30 kB read uncompressed, c64": r(
            "gateway 30 kB read c64, gzip accepted", "gateway 30 kB read c64, no Accept-Encoding"
        ),
    }
    if "gateway POST read c64 (before)" in rows:
        found["POST read / before, c64"] = r("gateway POST read c64", "gateway POST read c64 (before)")
        found["content hit / before, c64"] = r("gateway content hit c64", "gateway content hit c64 (before)")
        found["content hit 30 kB gzip / 30 kB uncompressed before, c64"] = r(
            "gateway content hit c64, 30 kB, gzip accepted",
            "gateway content hit c64, 30 kB, no Accept-Encoding (before)",
        )
    return found


def main_workers() -> None:
    """`python bench/throughput.py workers`: only the workers rows and their ratios, printed."""
    ensure_tools()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp, servers() as running:
        work = Path(tmp)
        upstream = fixed_upstream(work)
        store, redis_url = redis(work)
        running += [upstream, store]
        rows = interleaved(workers_cases(work, upstream, redis_url, running))
    print(json.dumps({"rows": rows, "ratios": workers_ratios(rows)}, indent=2))


# --- the SPA's first load ---------------------------------------------------------------------

# Each top route: its screen's chunk (None: it comes with the entry) and the translation
# namespaces it loads, in the default language (es).
TOP_ROUTES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "/home": (None, ("lobby", "games")),
    "/games/slots": ("src/app/routes/GamesRoutes.tsx", ("games",)),
    "/games/livedealer": ("src/app/routes/GamesRoutes.tsx", ("games",)),
    "/poker": ("src/features/games/PokerScreens.tsx", ("games", "lobby")),
    "/promotions": ("src/app/routes/PromotionsRoute.tsx", ("pages",)),
    "/mybalance": ("src/features/account/MyBalanceScreen.tsx", ("account",)),
    "/deposit": ("src/features/cashier/DepositScreen.tsx", ("cashier", "forms")),
    "/withdraw": ("src/features/cashier/WithdrawScreen.tsx", ("cashier", "forms")),
}


def spa_sizes() -> dict[str, Any]:
    """Gzip kB of the JS a first visit to each top route loads: the entry chunk and its static
    imports, plus the route's screen chunk, its static imports and its translations (es)."""
    import gzip

    dist = ROOT / "spa" / "dist"
    manifest_path = dist / ".vite" / "manifest.json"
    if not manifest_path.exists():
        return {"error": "spa/dist is not built (make spa)"}
    manifest = json.loads(manifest_path.read_text())

    def closure(key: str, seen: set[str]) -> set[str]:
        if key not in manifest:
            raise SystemExit(f"bench/throughput.py TOP_ROUTES: {key} is not in the SPA build (update the map)")
        if key in seen:
            return seen
        seen.add(key)
        for imported in manifest[key].get("imports", []):
            closure(imported, seen)
        return seen

    def size(keys: set[str]) -> float:
        return round(sum(len(gzip.compress((dist / manifest[k]["file"]).read_bytes(), 9)) for k in keys) / 1000, 1)

    entry = next(k for k, v in manifest.items() if v.get("isEntry"))
    initial = closure(entry, set())
    sizes: dict[str, Any] = {"initial": size(initial)}
    for route, (screen, namespaces) in TOP_ROUTES.items():
        keys = set(initial)
        if screen is not None:
            closure(screen, keys)
        for namespace in namespaces:
            closure(f"src/locales/es/{namespace}.json", keys)
        sizes[route] = size(keys)
    return sizes


# --- the run ----------------------------------------------------------------------------------


@contextmanager
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        yield started
    finally:
        for server in reversed(started):
            server.stop()


def main() -> None:
    ensure_tools()
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp, servers() as running:
        work = Path(tmp)
        upstream = fixed_upstream(work)
        running.append(upstream)
        proxy = nginx_proxy(work, upstream)
        running.append(proxy)
        ceiling = start(
            "aiohttp-proxy",
            [PYTHON, str(ROOT / "bench" / "aiohttp_proxy.py"), str(port := free_port()), upstream.url],
            port,
            work,
        )
        running.append(ceiling)
        store, redis_url = redis(work)
        running.append(store)
        gw = gateway("gateway", work, upstream)
        gw10 = gateway("gateway-10-skins", work, upstream, skins=10)
        gw_many = gateway("gateway-10k-sessions", work, upstream)
        gw_redis = gateway("gateway-redis", work, upstream, redis_url=redis_url)
        gw_redis_many = gateway("gateway-redis-10k-sessions", work, upstream, redis_url=redis_url)
        running += [gw, gw10, gw_many, gw_redis, gw_redis_many]

        print("logging players in", flush=True)
        few = {g.name: log_in_players(g.url, 64, work / f"{g.name}.sessions") for g in (gw, gw10, gw_redis)}
        many = {
            g.name: log_in_players(g.url, MANY_SESSIONS, work / f"{g.name}.sessions") for g in (gw_many, gw_redis_many)
        }

        plain_post = lua_script(work, "plain", "POST", "/api/cashier/balance", None, False)
        cases: list[Case] = []
        for conns in (1, 64):
            cases += [
                Case(f"direct c{conns}", upstream, plain_post, conns),
                Case(f"nginx proxy c{conns}", proxy, plain_post, conns),
                Case(f"aiohttp proxy c{conns}", ceiling, plain_post, conns),
                Case(
                    f"gateway POST read c{conns}",
                    gw,
                    lua_script(work, f"gw-post-{conns}", "POST", "/api/cashier/balance", few["gateway"], False),
                    conns,
                ),
                Case(
                    f"gateway content miss c{conns}",
                    gw,
                    lua_script(work, f"gw-miss-{conns}", "GET", "/capi/home-banners", None, True),
                    conns,
                ),
                Case(
                    f"gateway content hit c{conns}",
                    gw,
                    lua_script(work, f"gw-hit-{conns}", "GET", "/capi/home-banners", None, False),
                    conns,
                ),
            ]
        cases += [
            Case(
                "gateway POST read c64, 10 skins",
                gw10,
                lua_script(work, "gw10-post", "POST", "/api/cashier/balance", few["gateway-10-skins"], False),
                64,
            ),
            Case(
                "gateway content hit c64, 10 skins",
                gw10,
                lua_script(work, "gw10-hit", "GET", "/capi/home-banners", None, False),
                64,
            ),
            Case(
                f"gateway POST read c64, {MANY_SESSIONS} sessions",
                gw_many,
                lua_script(work, "gwmany-post", "POST", "/api/cashier/balance", many["gateway-10k-sessions"], False),
                64,
            ),
            Case(
                "gateway POST read c64, Redis",
                gw_redis,
                lua_script(work, "gwredis-post", "POST", "/api/cashier/balance", few["gateway-redis"], False),
                64,
            ),
            Case(
                f"gateway POST read c64, Redis, {MANY_SESSIONS} sessions",
                gw_redis_many,
                lua_script(
                    work, "gwredismany-post", "POST", "/api/cashier/balance", many["gateway-redis-10k-sessions"], False
                ),
                64,
            ),
        ]
        cases += bytes_cases(work, gw, few["gateway"])
        cases += workers_cases(work, upstream, redis_url, running)
        rows = interleaved(cases)
        per_read = redis_commands_per_request(gw_redis.url, few["gateway-redis"], redis_url)
    results = {
        "machine": machine(),
        "seconds_per_run": SECONDS,
        "rounds": ROUNDS,
        "wall_seconds": round(time.monotonic() - began),
        "rows": rows,
        "ratios": {**ratios(rows), **workers_ratios(rows), **bytes_ratios(rows)},
        "redis_per_read": per_read,
        "spa_initial_js_gzip_kb": spa_sizes(),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "throughput.json").write_text(json.dumps(results, indent=2) + "\n")
    write_report(results)
    print(f"wrote {RESULTS / 'throughput.json'} and bench/RESULTS.md in {results['wall_seconds']} s")


def ratios(rows: dict[str, dict[str, Any]]) -> dict[str, float]:
    def r(a: str, b: str, key: str = "rps") -> float:
        return round(rows[a][key] / rows[b][key], 3) if rows[b][key] else float("nan")

    return {
        "gateway POST read / nginx proxy, c64": r("gateway POST read c64", "nginx proxy c64"),
        "gateway POST read / aiohttp proxy, c64": r("gateway POST read c64", "aiohttp proxy c64"),
        "gateway POST read / direct, c64": r("gateway POST read c64", "direct c64"),
        "gateway content hit / nginx proxy, c64": r("gateway content hit c64", "nginx proxy c64"),
        "gateway content miss / nginx proxy, c64": r("gateway content miss c64", "nginx proxy c64"),
        "gateway c1 added p50 latency over direct (ms)": round(
            rows["gateway POST read c1"]["p50_ms"] - rows["direct c1"]["p50_ms"], 3
        ),
        "10 skins / 1 skin, POST read c64": r("gateway POST read c64, 10 skins", "gateway POST read c64"),
        "10 skins / 1 skin, content hit c64": r("gateway content hit c64, 10 skins", "gateway content hit c64"),
        f"{MANY_SESSIONS} / 64 sessions, memory, POST read c64": r(
            f"gateway POST read c64, {MANY_SESSIONS} sessions", "gateway POST read c64"
        ),
        "Redis / memory, POST read c64": r("gateway POST read c64, Redis", "gateway POST read c64"),
        f"{MANY_SESSIONS} / 64 sessions, Redis, POST read c64": r(
            f"gateway POST read c64, Redis, {MANY_SESSIONS} sessions", "gateway POST read c64, Redis"
        ),
    }


def machine() -> dict[str, Any]:
    def version(argv: list[str]) -> str:
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return "not found"
        return (done.stdout or done.stderr).strip().splitlines()[0]

    import importlib.metadata as md

    return {
        "cpus": os.cpu_count(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "nginx": version([nginx_binary(), "-v"]),
        "wrk": version(["wrk", "--version"]),
        "redis": version(["redis-server", "--version"]),
        "packages": {
            p: md.version(p)
            for p in (
                "litestar",
                "uvicorn",
                "httpx",
                "aiohttp",
                "msgspec",
                "structlog",
                "redis",
                "uvloop",
                "httptools",
            )
        },
        "pinning": f"servers on core {SERVER_CPU}, wrk on core {LOAD_CPU} (taskset); the workers rows' gateways"
        f" (1 process, 2 workers) on cores {WORKERS_CPUS}",
    }


def write_report(results: dict[str, Any]) -> None:
    scale_path = RESULTS / "scale.json"
    scale = json.loads(scale_path.read_text()) if scale_path.exists() else None
    lines = [
        "# Benchmark results",
        "",
        "Written by `make bench` (`bench/throughput.py`, then `bench/scale.py`); raw figures in",
        "[`results/throughput.json`](results/throughput.json) and [`results/scale.json`](results/scale.json).",
        "",
        "## Machine",
        "",
        *[f"- {k}: {v}" for k, v in results["machine"].items() if k != "packages"],
        "- packages: " + ", ".join(f"{k} {v}" for k, v in results["machine"]["packages"].items()),
        f"- each row: median of {results['rounds']} runs of {results['seconds_per_run']} s, rounds interleaved;"
        f" whole run {results['wall_seconds']} s",
        "- upstream: nginx `return 200` with a ~600-byte balance JSON (content: a ~500-byte banner list)",
        "- wrk: `wrk -t1 -cN -dTs --latency -s <script>`; the gateway rows rotate over logged-in players'",
        "  cookies and XSRF tokens (64 players, or the 10,000 of the session rows), each request a",
        "  `POST /api/cashier/balance {}`; content rows `GET /capi/home-banners` (miss: a new query each time)",
        "",
        "## Throughput and latency",
        "",
        "| case | req/s | p50 ms | p99 ms | CPU us/req | peak RSS MB | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in results["rows"].items():
        lines.append(
            f"| {name} | {row['rps']:,} | {row['p50_ms']} | {row['p99_ms']} | {row['cpu_us_per_request']} "
            f"| {row['peak_rss_mb']} | {row['non_2xx'] + row['socket_errors']} |"
        )
    lines += ["", "## Ratios (same run)", "", "| ratio | value |", "|---|---:|"]
    lines += [f"| {k} | {v} |" for k, v in results["ratios"].items()]
    if "redis_per_read" in results:
        lines += redis_per_read_report(results["redis_per_read"])
    if scale:
        one, three = scale["identical_reads_one_instance"], scale["identical_reads_three_instances_redis"]
        content = scale["content_steady_load"]
        lines += [
            "",
            "## Dedup and content cache (`bench/scale.py`, against the sandbox)",
            "",
            f"- {one['requests']} concurrent identical balance reads, 1 gateway: "
            f"{one['upstream_calls']} platform call(s), {one['ok']} x 200",
            f"- the same through 3 gateways sharing Redis (reads join per instance: at most 3): "
            f"{three['upstream_calls']} platform call(s), {three['ok']} x 200",
            f"- content at {content['rate_per_s']} req/s for {content['seconds']} s: "
            f"hit ratio {content['hit_ratio']:.2%}",
        ]
    sizes = results["spa_initial_js_gzip_kb"]
    lines += ["", "## SPA: JS loaded by a first visit (gzip kB)", "", "| route | kB |", "|---|---:|"]
    lines += [f"| {route} | {kb} |" for route, kb in sizes.items()]
    (Path(__file__).resolve().parent / "RESULTS.md").write_text("\n".join(lines) + "\n")


def redis_read() -> None:
    """Only the POST read c64 rows, memory and Redis, interleaved, and Redis commands per read:
    `python bench/throughput.py redis-read` (prints; writes nothing)."""
    ensure_tools()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp, servers() as running:
        work = Path(tmp)
        upstream = fixed_upstream(work)
        store, redis_url = redis(work)
        gw = gateway("gateway", work, upstream)
        gw_redis = gateway("gateway-redis", work, upstream, redis_url=redis_url)
        running += [upstream, store, gw, gw_redis]
        few = {g.name: log_in_players(g.url, 64, work / f"{g.name}.sessions") for g in (gw, gw_redis)}
        script = "POST", "/api/cashier/balance"
        cases = [
            Case("gateway POST read c64", gw, lua_script(work, "gw-post", *script, few["gateway"], False), 64),
            Case(
                "gateway POST read c64, Redis",
                gw_redis,
                lua_script(work, "gwredis-post", *script, few["gateway-redis"], False),
                64,
            ),
        ]
        rows = interleaved(cases)
        per_read = redis_commands_per_request(gw_redis.url, few["gateway-redis"], redis_url)
    for name, row in rows.items():
        print(
            f"{name:32} {row['rps']:>8,} req/s  p50 {row['p50_ms']} ms  p99 {row['p99_ms']} ms  "
            f"{row['cpu_us_per_request']} us CPU/req  all {row['all_rps']}"
        )
    redis_rps, memory_rps = rows["gateway POST read c64, Redis"]["rps"], rows["gateway POST read c64"]["rps"]
    print(f"Redis / memory, POST read c64: {redis_rps / memory_rps:.3f}")
    print(f"Redis per proxied read: {json.dumps(per_read)}")


if __name__ == "__main__":
    if sys.argv[1:] == ["redis-read"]:
        redis_read()
    elif sys.argv[1:] == ["workers"]:
        main_workers()
    elif sys.argv[1:2] == ["bytes"]:
        main_bytes(Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    else:
        main()
