"""The real product in subprocesses: `python -m gateway --with-sandbox` on free ports."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
START_WITHIN_S = float(os.environ.get("STACK_START_S", "120"))  # a loaded machine needs more
"""How long the product may take to answer at start (on a shared machine under load, a minute)."""
TEST_ALLOWED_HOSTS = "*=127.0.0.1,localhost,*.localhost,*.test,*.example"
"""The hosts the tests' gateways may point upstreams at (`BFF_ALLOWED_HOSTS`): their sandboxes on
other ports, nginx, the made-up names of the refusal tests. A test of the allowed hosts sets its own."""


_PORTS = range(10_000, 32_768)
"""Where tests' servers listen: below the kernel's ephemeral ports (32768-60999 on Linux), so that
no outgoing connection holds a port a test chose."""


def _worker_ports() -> range:
    """This pytest-xdist worker's own slice of `_PORTS` (all of it without xdist): a port one worker
    found free is never the one another worker picks before the first binds it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    size = len(_PORTS) // count
    start = _PORTS.start + int(worker) * size
    return range(start, start + size)


_next_port = iter(())


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on, from this worker's slice, each call a new one
    (cycling through the slice from a random start)."""
    global _next_port
    for _ in range(2):
        for port in _next_port:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        ports = _worker_ports()
        first = random.randrange(len(ports))
        _next_port = iter([*ports[first:], *ports[:first]])
    raise RuntimeError(f"no free port in {_worker_ports()}")


@dataclass
class Stack:
    url: str
    sandbox_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def logs(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_stack(
    log_dir: Path,
    env: dict[str, str] | None = None,
    port: int | None = None,
    root: Path = ROOT,
    sandbox_port: int | None = None,
) -> Stack:
    """The product of the checkout at `root` (this one by default), with this interpreter; a skins
    file (`SKINS_FILE` in `env`) that names the sandbox needs its port chosen first."""
    port = port or free_port()
    sandbox_port = sandbox_port or free_port()
    log_path = log_dir / f"stack-{port}.log"
    environment = {**os.environ, "GATEWAY_ENV": "development", "LOG_FORMAT": "json", **(env or {})}
    environment.setdefault("CONFIG_HISTORY_FILE", str(log_dir / f"history-{port}.jsonl"))  # not the checkout's var/
    environment.setdefault("AUDIT_FILE", str(log_dir / f"audit-{port}.jsonl"))
    environment.setdefault("BFF_ALLOWED_HOSTS", TEST_ALLOWED_HOSTS)
    process = subprocess.Popen(
        [sys.executable, "-m", "gateway", "--with-sandbox", "--port", str(port), "--sandbox-port", str(sandbox_port)],
        cwd=root,
        env=environment,
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )
    stack = Stack(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{sandbox_port}", process, log_path)
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the stack exited early:\n{stack.logs()}")
        try:
            if httpx.get(stack.url + "/bff/health", timeout=1).status_code == 200:
                return stack
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    stack.stop()
    raise RuntimeError(f"the stack did not start:\n{stack.logs()}")
