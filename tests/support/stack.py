"""The real product in subprocesses: `python -m gateway --with-sandbox` on free ports."""

from __future__ import annotations

import os
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
