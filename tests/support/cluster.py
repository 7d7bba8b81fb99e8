"""Several gateway processes sharing one Redis, in front of one sandbox: a small cluster."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import redis

from tests.support.stack import ROOT, START_WITHIN_S, TEST_ALLOWED_HOSTS, free_port


def require_redis_server() -> str:
    return required_binary("redis-server", "REQUIRE_REDIS")


def required_binary(name: str, flag: str) -> str:
    """Where `name` is installed; else the test is skipped, or fails when `flag`=1 (CI, `.ci/run`)."""
    binary = shutil.which(name)
    if binary is None:
        if os.environ.get(flag) == "1":
            pytest.fail(f"{name} is required ({flag}=1) but not installed")
        pytest.skip(f"{name} is not installed")
    return binary


@dataclass
class RedisServer:
    binary: str
    port: int
    workdir: Path
    process: subprocess.Popen[bytes] | None = None
    options: tuple[str, ...] = ()
    """More command-line options (e.g. `--replicaof 127.0.0.1 6379`)."""

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(lambda: _redis_answers(self.port), "redis-server")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def kill(self) -> None:
        """SIGKILL: no goodbye to its clients, nothing flushed."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def commands(self) -> dict[str, int]:
        """Calls per command since the server started (`INFO commandstats`), the tests' own INFO left out."""
        with self.client() as client:
            stats: dict[str, dict[str, int]] = client.info("commandstats")
        return {name.removeprefix("cmdstat_"): int(s["calls"]) for name, s in stats.items() if name != "cmdstat_info"}


def commands_between(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """What was called between two `RedisServer.commands()`, by command."""
    return {name: calls - before.get(name, 0) for name, calls in after.items() if calls - before.get(name, 0) > 0}


def _redis_answers(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class Process:
    name: str
    argv: list[str]
    env: dict[str, str]
    url: str
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self, health: str) -> None:
        self.spawn()
        self.wait_ready(health)

    def spawn(self) -> None:
        """The process started, not waited for (`wait_ready`): several start up side by side."""
        self.process = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT
        )

    def wait_ready(self, health: str) -> None:
        _wait(lambda: _answers(self.url + health), self.name, self.log)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def terminate(self, within_s: float) -> float:
        """SIGTERM (a deploy's stop); the seconds it took to exit, or fails past `within_s`."""
        assert self.process is not None
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=within_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"{self.name} did not exit within {within_s} s of SIGTERM") from None
        return time.monotonic() - started

    def peak_rss_mb(self) -> float:
        """The process's peak resident memory so far (VmHWM)."""
        assert self.process is not None
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024

    def stop(self) -> None:
        self.interrupt()
        self.settle()

    def interrupt(self) -> None:
        """SIGINT: a developer's Ctrl-C (`settle` waits for the exit)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)

    def settle(self, within_s: float = 10) -> None:
        """Waits for an interrupted process to exit; SIGKILL past `within_s`."""
        if self.process is not None and self.process.poll() is None:
            try:
                self.process.wait(timeout=within_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Cluster:
    redis: RedisServer
    sandbox: Process
    gateways: list[Process] = field(default_factory=list)
    admin_urls: list[str] = field(default_factory=list)

    def stop(self) -> None:
        """Every process told at once, then waited for: each one's shutdown (its drain, a
        browser's connection closing) overlaps the others' instead of adding to them."""
        processes = [*self.gateways, self.sandbox]
        for process in processes:
            process.interrupt()
        for process in processes:
            process.settle()
        self.redis.stop()

    def revive(self, instance: int) -> None:
        """Starts the `instance`th gateway again if a test killed or stopped it."""
        gateway = self.gateways[instance]
        if gateway.process is None or gateway.process.poll() is not None:
            gateway.start("/bff/health")

    def assert_clean_logs(self, *never: str) -> None:
        """No gateway answered 500 or met an error it did not handle, and none logged `never`."""
        for gateway in self.gateways:
            log = gateway.log.read_text()
            assert '"status":500' not in log, f"{gateway.name} answered 500"
            assert "unhandled error" not in log, f"{gateway.name} met an error it did not handle"
            for text in never:
                assert text not in log, f"{gateway.name} logged {text!r}"


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=0.5).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(check: object, name: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.05)
    detail = log.read_text(errors="replace")[-3000:] if log else ""
    raise RuntimeError(f"{name} did not start\n{detail}")


ADMIN_TOKEN = "cluster-admin-token"


def skins_toml(sandbox_url: str) -> str:
    return f"""
[[skins]]
id = "aurora"
site_id = "aurora"
name = "Aurora Casino"
hosts = ["127.0.0.1", "localhost"]
currency = "INR"
currency_symbol = "Bs."
frame_hosts = ["{sandbox_url}"]
[skins.upstreams]
api = "{sandbox_url}"
capi = "{sandbox_url}"
sbapi = "{sandbox_url}"
rest = "{sandbox_url}"
"""


def extra_skin(skin_id: str, name: str, *settings: str) -> str:
    """A skin on the cluster's sandbox (`<id>.localhost`, aurora's site) for `start_cluster(extra_skins=...)`;
    `settings` are more of its lines in the skins file (`approval = true`)."""
    lines = [f'id = "{skin_id}"', 'site_id = "aurora"', f'name = "{name}"', f'hosts = ["{skin_id}.localhost"]']
    upstreams = "".join(f'{upstream} = "{{sandbox}}"\n' for upstream in ("api", "capi", "sbapi", "rest"))
    return "\n[[skins]]\n" + "\n".join([*lines, 'currency = "INR"', *settings]) + "\n[skins.upstreams]\n" + upstreams


TALLY = extra_skin("tally", "Tally")
"""A second skin on the sandbox (`tally.localhost`), for `start_cluster(extra_skins=TALLY)`."""


def bound_client(url: str, source: str, **kw: object) -> httpx.Client:
    """A client whose connections leave from `source` (any 127.0.0.0/8 address): one of many
    players' machines. Only 127.0.0.1 and ::1 are trusted proxies, so the gateway sees `source`."""
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=source), timeout=30, **kw)  # type: ignore[arg-type]


def start_cluster(
    workdir: Path,
    instances: int = 3,
    env: dict[str, str] | None = None,
    extra_skins: str = "",
    redis: RedisServer | None = None,
) -> Cluster:
    """`redis`: one already started (the gateways' `REDIS_*` variables then come with `env`);
    `{sandbox}` in `extra_skins` stands for the sandbox's URL."""
    if redis is None:
        redis = RedisServer(require_redis_server(), free_port(), workdir)
        redis.start()
    sandbox_port = free_port()
    sandbox_url = f"http://127.0.0.1:{sandbox_port}"
    base_env = {**os.environ}
    sandbox = sandbox_process(workdir, port=sandbox_port, env=base_env)
    sandbox.start("/_sandbox/health")
    skins = workdir / "skins.toml"
    skins.write_text(skins_toml(sandbox_url) + extra_skins.replace("{sandbox}", sandbox_url))
    cluster = Cluster(redis, sandbox)
    gateway_env = {
        **base_env,
        "SKINS_FILE": str(skins),
        "REDIS_URL": redis.url,
        "SECRET_KEY": "cluster-secret",
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        # Not the checkout's var/: a Redis gateway carries a file mode's trail and history over.
        "AUDIT_FILE": str(workdir / "audit.jsonl"),
        "CONFIG_HISTORY_FILE": str(workdir / "config-history.jsonl"),
        "BFF_ALLOWED_HOSTS": TEST_ALLOWED_HOSTS,
        **(env or {}),
    }
    for n in range(instances):
        admin_port = free_port()
        cluster.admin_urls.append(f"http://127.0.0.1:{admin_port}")
        gateway = gateway_process(workdir, {**gateway_env, "ADMIN_PORT": str(admin_port)}, name=f"gateway-{n}")
        gateway.spawn()
        cluster.gateways.append(gateway)
    # Started side by side, then waited for: a gateway's start-up is mostly its imports (about
    # 1.5 CPU-seconds), so on two cores three of them take about half as long as one after another.
    try:
        for gateway in cluster.gateways:
            gateway.wait_ready("/bff/health")
    except BaseException:
        cluster.stop()  # the others, and the Redis and sandbox, not left running
        raise
    return cluster


def another_sandbox(workdir: Path, name: str = "sandbox-new") -> Process:
    """A second sandbox, started: a skin's other platform (a canary's new one), with its own
    players, sessions, call counts and ledgers."""
    sandbox = sandbox_process(workdir, name)
    sandbox.start("/_sandbox/health")
    return sandbox


def gateway_process(
    workdir: Path,
    env: dict[str, str],
    *,
    name: str = "gateway",
    port: int | None = None,
    options: Iterable[str] = (),
    log: str | None = None,
) -> Process:
    """`python -m gateway` on `port` (a free one by default) with `options`, not started yet;
    `env` is its whole environment; it logs to `<workdir>/<log>` (`<name>.log` by default)."""
    port = port or free_port()
    argv = [sys.executable, "-m", "gateway", "--port", str(port), *options]
    return Process(name, argv, env, f"http://127.0.0.1:{port}", workdir / (log or f"{name}.log"))


def sandbox_process(
    workdir: Path,
    name: str = "sandbox",
    *,
    port: int | None = None,
    env: dict[str, str] | None = None,
    options: Iterable[str] = ("--deposit-delay", "0.2"),
) -> Process:
    """`python -m sandbox` on `port` (a free one by default) with `options`, not started yet; it
    logs to `<workdir>/<name>.log`."""
    port = port or free_port()
    argv = [sys.executable, "-m", "sandbox", "--port", str(port), *options]
    environment = {**os.environ} if env is None else env
    return Process(name, argv, environment, f"http://127.0.0.1:{port}", workdir / f"{name}.log")


@contextlib.contextmanager
def slow_call_in_flight(url: str, sandbox_url: str, latency_ms: int = 2000) -> Iterator[dict[str, httpx.Response]]:
    """A player's call that the platform takes `latency_ms` to answer, in flight (in a thread)
    while the block runs, e.g. to drain the gateway under it; on leaving, waited for: its answer
    is `result["answer"]`. The sandbox's fault is the caller's to clear."""
    with httpx.Client(base_url=url, timeout=10) as http:
        http.get("/bff/session")
        xsrf = {"X-XSRF-TOKEN": http.cookies.get("XSRF-TOKEN") or ""}
        httpx.put(sandbox_url + "/_sandbox/faults/getProviders", json={"latencyMs": latency_ms})
        result: dict[str, httpx.Response] = {}
        slow = threading.Thread(
            target=lambda: result.update(answer=http.post("/api/agentAccount/getProviders", json={}, headers=xsrf))
        )
        slow.start()
        time.sleep(0.3)
        yield result
        slow.join(10)


PAMPA_SKIN = """
[[skins]]
id = "pampa"
site_id = "pampa"
name = "Pampa"
hosts = ["pampa.localhost"]
currency = "ARS"
[skins.upstreams]
api = "{sandbox}"
capi = "{sandbox}"
sbapi = "{sandbox}"
rest = "{sandbox}"
"""
"""A second skin for `start_cluster(extra_skins=...)`, on the same sandbox."""


def given_redis(workdir: Path) -> RedisServer | None:
    """A Redis already running at `TEST_REDIS_URL` (emptied first) for `start_cluster(redis=...)`;
    None: the cluster starts its own. Under pytest-xdist only the first worker uses it: two
    workers' clusters on one Redis would empty each other's."""
    given = os.environ.get("TEST_REDIS_URL")
    if not given or os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0":
        return None
    server = RedisServer(require_redis_server(), urlsplit(given).port or 6379, workdir)
    server.client().flushall()
    return server


def lift_sign_in_blocks(server: RedisServer) -> None:
    """Ends every sign-in block an operator's revocation left (`SIGN_IN_BLOCK_S`, 15 minutes): the
    tests of a module share one cluster and its Redis, and the demo players sign in again in the next."""
    with server.client() as client:
        blocks = list(client.scan_iter(match="bff:*:sign-in-blocks:*", count=1000))
        if blocks:
            client.delete(*blocks)
