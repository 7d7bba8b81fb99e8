"""`python -m gateway --workers N`: one supervisor, N worker processes serving one socket.

The supervisor binds the public port once and starts N workers (`python -m gateway --serve-fd`),
each serving the inherited socket with the guarded listener (gateway/edge/listener.py) and draining as
one process does (gateway/operations/cli.py). It replaces a worker that dies, relays SIGTERM / SIGINT (and
exits 0 once every worker drained; one still there `DRAIN_DELAY_S + DRAIN_TIMEOUT_S + 5` s later
is killed) and SIGHUP, and serves the admin listener itself: `/metrics` is the workers' aggregate
(prometheus-client's multiprocess mode, in a temporary directory made and removed here),
configuration changes reach the workers through Redis as they reach other instances, and
`/admin/status` lists the workers and whether all of them serve.

Hand-written, not uvicorn.supervisors.Multiprocess (uvicorn 0.54), which ran `--workers` before
this module and was measured against a slow call in flight: on SIGHUP it replaced both workers
(new pids) instead of re-reading the skins; during a SIGTERM drain `/bff/ready` still answered 200
"ready" and `DRAIN_DELAY_S` was ignored (its workers run uvicorn's `Server`, not the gateway's
drain); it offers no hook when a worker dies (`mark_process_dead` needs one), and it builds its
worker `Process` by name in four of its methods, so a subclass would have replaced all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
import uvicorn
from prometheus_client.multiprocess import mark_process_dead

from gateway.config.settings import Settings
from gateway.monitoring.observability import configure_logging
from gateway.operations.servers import OwnedServer
from gateway.runtime.metrics import aggregate, count_answered

if TYPE_CHECKING:
    from gateway.parts import Gateway

log = structlog.get_logger("gateway.workers")
RESTART_PAUSE_S = 1.0
"""A worker that dies within this of its start is replaced only after it (no tight crash loop)."""
KILL_GRACE_S = 5.0


def supervise(settings: Settings, host: str, port: int, count: int) -> int:
    """Serves `host:port` with `count` workers until SIGTERM / SIGINT; the exit status."""
    configure_logging(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.create_server((host, port), family=family, backlog=2048)
    directory = Path(tempfile.mkdtemp(prefix="bff-metrics-"))
    try:
        return asyncio.run(Supervisor(settings, listening, count, directory).supervise())
    finally:
        listening.close()
        shutil.rmtree(directory, ignore_errors=True)


@dataclass
class Worker:
    slot: int
    process: asyncio.subprocess.Process
    started_at: float
    ready: bool = False
    """It wrote to its ready pipe: its server serves."""

    @property
    def alive(self) -> bool:
        return self.process.returncode is None


class Supervisor:
    def __init__(self, settings: Settings, listening: socket.socket, count: int, directory: Path) -> None:
        self.settings = settings
        self.listening = listening
        self.count = count
        self.directory = directory
        self.workers: list[Worker | None] = [None] * count
        self.replaced = 0
        self.stopping = False
        self.gateway: Gateway | None = None
        """The supervisor's own gateway parts, behind the admin listener (with `ADMIN_TOKEN` or `OPERATORS_FILE`)."""
        self._gone = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def supervise(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._stop)
        loop.add_signal_handler(signal.SIGHUP, self._reload)
        for slot in range(self.count):  # they start while the admin listener's parts are made
            await self._start(slot)
        log.info("workers.started", workers=self.count, pid=os.getpid())
        async with self._admin_listener():
            await self._gone.wait()
        log.info("gateway.stopped", workers=self.count)
        return 0

    # --- the workers ---------------------------------------------------------------------

    async def _start(self, slot: int) -> None:
        read_fd, write_fd = os.pipe()
        serve_fd = self.listening.fileno()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "gateway",
            "--serve-fd",
            str(serve_fd),
            "--ready-fd",
            str(write_fd),
            pass_fds=(serve_fd, write_fd),
            env=self._environment(),
            process_group=0,
        )
        # Its own process group: a terminal's Ctrl-C reaches the supervisor only, which relays it once.
        os.close(write_fd)
        worker = self.workers[slot] = Worker(slot, process, time.time())
        asyncio.get_running_loop().add_reader(read_fd, self._on_ready, worker, read_fd)
        task = asyncio.ensure_future(self._watch(worker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _environment(self) -> dict[str, str]:
        """The supervisor's environment, passed on; the workers write their metrics to files, sign
        with one key (a random one each would refuse each other's XSRF tokens) and have no admin
        token or operators: the admin listener is the supervisor's."""
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(self.directory), "SECRET_KEY": self.settings.secret_key}
        env.pop("ADMIN_TOKEN", None)
        env.pop("OPERATORS_FILE", None)
        return env

    def _on_ready(self, worker: Worker, read_fd: int) -> None:
        data = os.read(read_fd, 1)  # b"" when it died first
        asyncio.get_running_loop().remove_reader(read_fd)
        os.close(read_fd)
        worker.ready = bool(data)

    async def _watch(self, worker: Worker) -> None:
        pid = worker.process.pid
        code = await worker.process.wait()
        mark_process_dead(pid, str(self.directory))  # type: ignore[no-untyped-call]  # its live gauges go
        if self.stopping:
            log.info("worker.stopped", pid=pid, code=code)
            self._check_gone()
            return
        log.error("worker.died", pid=pid, code=code, slot=worker.slot)
        if time.time() - worker.started_at < RESTART_PAUSE_S:
            await asyncio.sleep(RESTART_PAUSE_S)
        if self.stopping:
            self._check_gone()
            return
        self.replaced += 1
        await self._start(worker.slot)
        log.info("worker.replaced", pid=pid, by=self.workers[worker.slot].process.pid)  # type: ignore[union-attr]

    def _check_gone(self) -> None:
        if self.stopping and not any(w is not None and w.alive for w in self.workers):
            self._gone.set()

    # --- signals -------------------------------------------------------------------------

    def _stop(self) -> None:
        if self.stopping:  # a second signal: each worker stops at once on its second one
            self._relay(signal.SIGTERM)
            return
        self.stopping = True
        if self.gateway is not None:
            self.gateway.lifecycle.drain()
        within_s = self.settings.drain_delay_s + self.settings.drain_timeout_s + KILL_GRACE_S
        log.info("workers.draining", workers=self.count, kill_after_s=within_s)
        self._relay(signal.SIGTERM)
        asyncio.get_running_loop().call_later(within_s, self._relay, signal.SIGKILL)
        self._check_gone()

    def _reload(self) -> None:
        self._relay(signal.SIGHUP)
        if self.gateway is not None:
            self.gateway.lifecycle.spawn(self.gateway.reread("SIGHUP"))

    def _relay(self, sig: signal.Signals) -> None:
        for worker in self.workers:
            if worker is not None and worker.alive:
                with contextlib.suppress(ProcessLookupError):
                    worker.process.send_signal(sig)

    # --- the admin listener --------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _admin_listener(self) -> AsyncIterator[None]:
        """With `ADMIN_TOKEN` or `OPERATORS_FILE`: the supervisor's own gateway parts (configuration,
        store, sessions, operators) kept live as an instance's are, behind the admin listener, until
        the workers are gone."""
        if not self.settings.admin_listener:
            yield
            return
        from gateway.app import admin_app, create_app, lifespan  # after the workers started: they need it first

        app = create_app(self.settings)
        self.gateway = app.gateway
        app.gateway.instances.workers = self.count  # its record in the instances view says it supervises them
        config = uvicorn.Config(
            admin_app(app, self),
            host=self.settings.admin_host,
            port=self.settings.admin_port,
            lifespan="off",
            log_level="warning",
            log_config=None,
            access_log=False,
        )
        admin = OwnedServer(config)
        async with lifespan(app.gateway):
            serving = asyncio.ensure_future(admin.serve())
            try:
                yield
            finally:
                admin.should_exit = True
                await serving
                # Its background work (retiring pools after a swap) serves nobody once the
                # workers are gone: cancelled now, not waited on for the lifespan's 5 s.
                await app.gateway.lifecycle.settle()

    def metrics(self) -> bytes:
        return aggregate(self.directory)

    def describe(self) -> dict[str, Any]:
        live = [w for w in self.workers if w is not None and w.alive]
        serving = sum(1 for w in live if w.ready)
        processes = [
            {
                "pid": w.process.pid,
                "ready": w.ready,
                "startedAt": _iso(w.started_at),
                "requests": count_answered(self.directory, w.process.pid),
            }
            for w in live
        ]
        return {
            "wanted": self.count,
            "serving": serving,
            "ready": serving == self.count and not self.stopping,
            "replaced": self.replaced,
            "processes": processes,
        }


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
