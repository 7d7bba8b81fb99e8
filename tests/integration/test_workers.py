"""`python -m gateway --workers 2` with Redis, as real processes: both workers serve, the admin
listener (the supervisor's) sums their metrics and its overrides reach both, a worker killed with
-9 is replaced while the other serves, SIGTERM drains a slow call before the supervisor exits 0;
and the in-memory store is refused."""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.cluster import (
    ADMIN_TOKEN,
    Process,
    RedisServer,
    gateway_process,
    require_redis_server,
    sandbox_process,
    skins_toml,
    slow_call_in_flight,
)
from tests.support.stack import TEST_ALLOWED_HOSTS, free_port

ADMIN = {"authorization": f"Bearer {ADMIN_TOKEN}", "x-admin-user": "workers-test"}


@dataclass
class Served:
    supervisor: Process
    admin_url: str
    redis: RedisServer
    sandbox_a: Process
    sandbox_b: Process

    def admin(self, method: str, path: str, **kw: Any) -> httpx.Response:
        answer = httpx.request(method, self.admin_url + path, headers=ADMIN, timeout=10, **kw)
        assert answer.status_code == 200, answer.text
        return answer

    def workers(self) -> dict[str, Any]:
        return dict(self.admin("GET", "/admin/status").json()["workers"])

    def requests_total(self) -> float:
        text = self.admin("GET", "/metrics").text
        return sum(float(v) for v in re.findall(r"^bff_requests_total\{[^}]*\} (\S+)$", text, re.M))


def _sandbox(name: str, workdir: Path) -> Process:
    return sandbox_process(workdir, name, options=())


def _supervisor(workdir: Path, redis_url: str, sandbox_url: str, **env: str) -> tuple[Process, str]:
    port, admin_port = free_port(), free_port()
    skins = workdir / "skins.toml"
    skins.write_text(skins_toml(sandbox_url))
    environment = {
        **os.environ,
        "SKINS_FILE": str(skins),
        "REDIS_URL": redis_url,
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "ADMIN_PORT": str(admin_port),
        "TMPDIR": str(workdir),
        "BFF_ALLOWED_HOSTS": TEST_ALLOWED_HOSTS,
        **env,
    }
    environment.pop("SECRET_KEY", None)  # the supervisor gives its workers one key
    process = gateway_process(workdir, environment, name="supervisor", port=port, options=("--workers", "2"))
    return process, f"http://127.0.0.1:{admin_port}"


def _start(*processes: Process) -> None:
    """Started at once and given a minute and a half: each takes seconds to import, many on a
    loaded machine."""
    for process in processes:
        process.spawn()
    for process in processes:
        health = process.url + ("/_sandbox/health" if "sandbox" in process.name else "/bff/health")
        _until(functools.partial(_answers, health), 90, f"{process.name} serves ({process.log})")


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _until(check: Callable[[], bool], within_s: float, what: str) -> None:
    deadline = time.monotonic() + within_s
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    workdir = tmp_path_factory.mktemp("workers")
    redis = RedisServer(require_redis_server(), free_port(), workdir)
    redis.start()
    a, b = _sandbox("sandbox-a", workdir), _sandbox("sandbox-b", workdir)
    supervisor, admin_url = _supervisor(workdir, redis.url, a.url, SKINS_POLL_S="3600")  # changes only by SIGHUP
    running = Served(supervisor, admin_url, redis, a, b)
    try:
        _start(a, b, supervisor)
        # Sandbox B is told apart from A by its provider list: ezugi is off there.
        httpx.put(b.url + "/_sandbox/sites/aurora/providers/ezugi", json={"enabled": False})
        _until(lambda: running.workers()["serving"] == 2, 30, "both workers serve")
        yield running
    finally:
        for process in (supervisor, a, b):
            process.stop()
        redis.stop()


def _player_reads(url: str, players: int, reads: int) -> list[tuple[int, str | None]]:
    """`players` browsers at once, each on its own connection, logged out, reading the providers
    `reads` times: (status, which sandbox answered)."""

    def player(n: int) -> list[tuple[int, str | None]]:
        answers: list[tuple[int, str | None]] = []
        with httpx.Client(base_url=url, timeout=10, headers={"x-forwarded-for": f"10.9.{n // 250}.{n % 250}"}) as http:
            http.get("/bff/session")
            xsrf = {"X-XSRF-TOKEN": http.cookies.get("XSRF-TOKEN") or ""}
            for _ in range(reads):
                answer = http.post("/api/agentAccount/getProviders", json={}, headers=xsrf)
                ezugi = [p for p in answer.json() if p["name"] == "ezugi"] if answer.status_code == 200 else []
                answers.append((answer.status_code, ("b" if ezugi[0]["status"] == 0 else "a") if ezugi else None))
        return answers

    with ThreadPoolExecutor(players) as pool:
        return [a for answers in pool.map(player, range(players)) for a in answers]


def test_both_workers_serve_and_the_admin_metrics_sum_them(served: Served) -> None:
    before_total = served.requests_total()
    before = {p["pid"]: p["requests"] for p in served.workers()["processes"]}
    answers = _player_reads(served.supervisor.url, players=16, reads=10)
    assert {status for status, _ in answers} == {200}
    after = {p["pid"]: p["requests"] for p in served.workers()["processes"]}
    each = {pid: after[pid] - before.get(pid, 0) for pid in after}
    assert len(each) == 2 and all(n > 0 for n in each.values()), f"both workers answered: {each}"
    sent = 16 * 11  # a session call and ten reads each
    assert sum(each.values()) == sent
    assert served.requests_total() - before_total == sent, "/metrics sums both workers"


def test_an_admin_override_reaches_both_workers(served: Served) -> None:
    version = served.admin("GET", "/admin/status").json()["config"]["version"]
    try:
        changed = served.admin("PUT", "/admin/skins/aurora/upstreams/api", json={"url": served.sandbox_b.url})
        new = served.admin("GET", "/admin/status").json()["config"]["version"]
        live = changed.json()["live"]
        assert (live["acknowledged"], live["total"]) == (3, 3), "the supervisor and both workers run it"
        listed = served.admin("GET", "/admin/api/instances").json()["instances"]
        assert [i["workers"] for i in listed] == [2, None, None] and all(i["sameVersion"] for i in listed)

        def converged() -> bool:
            text = served.admin("GET", "/metrics").text
            return f'bff_config_info{{version="{new}"}} 1.0' in text and (
                f'bff_config_info{{version="{version}"}} 1.0' not in text
            )

        _until(converged, 3, "every live worker runs the new configuration")
        before = {p["pid"]: p["requests"] for p in served.workers()["processes"]}
        answers = _player_reads(served.supervisor.url, players=8, reads=5)
        after = {p["pid"]: p["requests"] for p in served.workers()["processes"]}
        assert all(after[pid] > before.get(pid, 0) for pid in after), "both workers answered"
        assert answers and all(answer == (200, "b") for answer in answers), "every read went to sandbox B"
        overview = served.admin("GET", "/admin/api/overview").json()
        assert overview["contractBreaches"] == {"scope": "workers"}, "the workers' counts, summed"
        assert all(skin["contractBreaches"] == [] for skin in overview["skins"]), "sandbox B keeps every contract"
    finally:
        served.admin("DELETE", "/admin/skins/aurora/upstreams/api")


def test_sighup_makes_every_worker_re_read_the_skins_file(served: Served) -> None:
    skins = Path(served.supervisor.env["SKINS_FILE"])
    original = skins.read_text()

    def hup_until_converged() -> None:
        before = served.admin("GET", "/admin/status").json()["config"]["version"]
        assert served.supervisor.process is not None
        served.supervisor.process.send_signal(signal.SIGHUP)

        def converged() -> bool:
            status = served.admin("GET", "/admin/status").json()
            text = served.admin("GET", "/metrics").text
            new = status["config"]["version"]
            return (
                new != before
                and f'bff_config_info{{version="{before}"}} 1.0' not in text
                and (f'bff_config_info{{version="{new}"}} 1.0' in text)
            )

        _until(converged, 5, "the supervisor and every live worker run the re-read file")

    try:
        skins.write_text(original.replace(served.sandbox_a.url, served.sandbox_b.url))
        hup_until_converged()
        answers = _player_reads(served.supervisor.url, players=8, reads=3)
        assert answers and all(answer == (200, "b") for answer in answers), "every read went to sandbox B"
        overview = served.admin("GET", "/admin/api/overview").json()
        assert overview["contractBreaches"] == {"scope": "workers"}, "the workers' counts, summed"
        assert all(skin["contractBreaches"] == [] for skin in overview["skins"]), "sandbox B keeps every contract"
    finally:
        skins.write_text(original)
        hup_until_converged()


def test_a_worker_killed_with_9_is_replaced_and_service_goes_on(served: Served) -> None:
    workers = served.workers()
    victim = workers["processes"][0]["pid"]
    os.kill(victim, signal.SIGKILL)
    answers = _player_reads(served.supervisor.url, players=4, reads=5)  # meanwhile, on the other worker
    assert {status for status, _ in answers} == {200}

    def replaced() -> bool:
        now = served.workers()
        pids = {p["pid"] for p in now["processes"]}
        return now["serving"] == 2 and victim not in pids and now["replaced"] == workers["replaced"] + 1

    # A new worker imports the gateway first (about 2 CPU-seconds): 15 s were not enough under a load of 14.
    _until(replaced, 45, "a new worker serves in the killed one's place")
    assert {status for status, _ in _player_reads(served.supervisor.url, players=8, reads=3)} == {200}


def test_sigterm_drains_a_slow_call_in_every_worker_then_exits_0(served: Served, tmp_path: Path) -> None:
    sandbox = served.sandbox_a
    supervisor, admin_url = _supervisor(
        # The readiness checks below must land inside the drain delay: 0.5 s was over before the
        # fourth on a loaded machine (the listener closed: a connection reset, not a 503).
        tmp_path,
        served.redis.url,
        sandbox.url,
        DRAIN_DELAY_S="2",
        DRAIN_TIMEOUT_S="5",
    )
    own = Served(supervisor, admin_url, served.redis, sandbox, served.sandbox_b)
    try:
        _start(supervisor)
        # Both workers serve before the call goes out: one still starting would take the call
        # from the shared socket's queue only once it drains (a 503: the first run's flake).
        _until(lambda: own.workers()["serving"] == 2, 30, "both workers serve")
        assert list(tmp_path.glob("bff-metrics-*")), "the supervisor's metrics directory"
        with slow_call_in_flight(supervisor.url, sandbox.url) as result:
            started = time.monotonic()
            assert supervisor.process is not None
            supervisor.process.send_signal(signal.SIGTERM)
            time.sleep(0.1)
            for _ in range(4):  # whichever worker answers, it drains
                ready = httpx.get(supervisor.url + "/bff/ready", timeout=2)
                assert ready.status_code == 503 and ready.json()["status"] == "draining"
        assert result["answer"].status_code == 200, "the call in flight completed"
        assert supervisor.process.wait(timeout=10) == 0
        assert time.monotonic() - started < 5.5
        assert not list(tmp_path.glob("bff-metrics-*")), "the metrics directory is removed"
        with pytest.raises(httpx.ConnectError):
            httpx.get(supervisor.url + "/bff/health", timeout=1)
    finally:
        supervisor.kill()
        httpx.delete(sandbox.url + "/_sandbox/faults")


def test_workers_without_redis_are_refused_with_the_reason() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "gateway", "--port", str(free_port()), "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert "--workers needs REDIS_URL" in done.stderr
