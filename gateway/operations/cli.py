"""`python -m gateway`: serve the gateway (optionally with the sandbox beside it, and the
admin listener when `ADMIN_TOKEN` or `OPERATORS_FILE` is set); `python -m gateway operators ...`
manages the operators file (gateway/console/cli.py); `python -m gateway audit verify` checks the audit
trail's hash chain (gateway/console/audit_cli.py); `python -m gateway check-upstream URL ...` checks
that a base URL speaks the platform (gateway/operations/check_upstream.py).

Signals: SIGTERM / Ctrl-C drain (readiness false at once, new connections refused after
`DRAIN_DELAY_S`, requests in flight finish within `DRAIN_TIMEOUT_S`, exit 0); a second one
stops at once. SIGHUP re-reads the skins file and the operators file. With `--workers N` (and `REDIS_URL`) a supervisor
(gateway/operations/workers.py) runs N such processes on one socket and relays these signals to them.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import dataclasses
import os
import signal
import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import structlog
import uvicorn

from gateway.config.settings import Settings
from gateway.edge.listener import guarded_protocol
from gateway.operations.servers import OwnedServer

if TYPE_CHECKING:
    from gateway.parts import Gateway

log = structlog.get_logger("gateway")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["operators"]:
        from gateway.console.cli import main as operators

        sys.exit(operators(argv[1:]))
    if argv[:1] == ["audit"]:
        from gateway.console.audit_cli import main as audit

        sys.exit(audit(argv[1:]))
    if argv[:1] == ["check-upstream"]:
        from gateway.operations.check_upstream import main as check_upstream

        sys.exit(check_upstream(argv[1:]))
    parser = argparse.ArgumentParser(prog="python -m gateway", description="Serve the casino BFF gateway.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes sharing the port (production: one per core; needs REDIS_URL)"
    )
    parser.add_argument(
        "--with-sandbox", action="store_true", help="also serve the sandbox platform (the built-in skins' upstream)"
    )
    parser.add_argument(
        "--sandbox-port",
        type=int,
        default=8001,
        help="with --with-sandbox: its port (the built-in skins and a skins file's {sandbox} follow it)",
    )
    # A worker of `--workers N` (started by the supervisor): the inherited listening socket,
    # and a pipe it writes to once it serves.
    parser.add_argument("--serve-fd", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ready-fd", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.with_sandbox and "SANDBOX_URL" in os.environ:
        sys.exit(
            "gateway: SANDBOX_URL and --with-sandbox both say where the sandbox is: unset SANDBOX_URL to use the "
            "sandbox served beside the gateway (its port: --sandbox-port), or leave out --with-sandbox to use the "
            "one at SANDBOX_URL"
        )
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        sys.exit(f"gateway: {exc}")
    if args.workers > 1:
        sys.exit(_supervise(settings, args.host, args.port, args.workers, args.with_sandbox))
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        if args.serve_fd is not None:
            listening = socket.socket(fileno=args.serve_fd)
            _drain_when_orphaned()
            runner.run(_serve(settings, args.host, args.port, None, FromSupervisor(listening, args.ready_fd)))
            return
        runner.run(_serve(settings, args.host, args.port, args.sandbox_port if args.with_sandbox else None))


def _supervise(settings: Settings, host: str, port: int, workers: int, with_sandbox: bool) -> int:
    if with_sandbox:
        sys.exit("gateway: --with-sandbox serves one process; run the sandbox on its own (python -m sandbox)")
    if settings.shared_redis is None:
        sys.exit(
            "gateway: --workers needs REDIS_URL or REDIS_SENTINELS: workers share sessions, joined calls, "
            "idempotency records and configuration through Redis; with the in-memory store each would have its "
            "own (a player logged in on one worker would be a stranger to the next)"
        )
    from gateway.operations.workers import supervise

    return supervise(settings, host, port, workers)


def _drain_when_orphaned() -> None:
    """A worker whose supervisor was killed gets SIGTERM (Linux's parent-death signal): it drains
    and exits instead of holding the port with nobody to replace or stop it."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclasses.dataclass(frozen=True)
class FromSupervisor:
    """A worker's part of `--workers N`: the supervisor's socket, and the pipe that says it serves."""

    listening: socket.socket
    ready_fd: int | None

    def on_start(self) -> None:
        if self.ready_fd is not None:
            os.write(self.ready_fd, b"1")
            os.close(self.ready_fd)


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop when installed (uvicorn[standard] brings it), as `uvicorn.run` would choose:
    the servers here share one loop, so this process picks it itself."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _serve(
    settings: Settings, host: str, port: int, sandbox_port: int | None, worker: FromSupervisor | None = None
) -> None:
    from gateway.app import admin_app, create_app  # here: a supervisor starts its workers without it

    others: list[uvicorn.Server] = []
    if sandbox_port is not None:
        settings = dataclasses.replace(settings, sandbox_url=f"http://{host}:{sandbox_port}")
        others.append(_sandbox_server(host, sandbox_port, settings.sandbox_url))
    app = create_app(settings)
    gateway = app.gateway
    public = OwnedServer(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            proxy_headers=False,
            log_level="warning",
            log_config=None,
            access_log=False,
            timeout_graceful_shutdown=max(1, round(settings.drain_timeout_s)),
            http=guarded_protocol(settings.listener),
        )
    )
    if worker is not None:
        public.on_started = worker.on_start
    if settings.admin_listener:  # a worker's supervisor keeps the admin listener to itself
        admin = uvicorn.Config(
            admin_app(app),
            host=settings.admin_host,
            port=settings.admin_port,
            lifespan="off",
            log_level="warning",
            log_config=None,
            access_log=False,
        )
        others.append(OwnedServer(admin))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _drain, loop, gateway, public, settings.drain_delay_s)
    loop.add_signal_handler(signal.SIGHUP, lambda: gateway.lifecycle.spawn(gateway.reread("SIGHUP")))
    if sandbox_port is not None:
        print(f"serving the product at http://{host}:{port} (sandbox platform at {settings.sandbox_url})", flush=True)
    if settings.admin_listener:
        print(f"admin listener at http://{settings.admin_host}:{settings.admin_port}/admin", flush=True)
    # The public server stops first; the sandbox (which its calls in flight may need) and
    # the admin listener stop after it.
    serving = [asyncio.ensure_future(server.serve()) for server in others]
    try:
        await public.serve([worker.listening] if worker is not None else None)
    finally:
        for server in others:
            server.should_exit = True
        await asyncio.gather(*serving, return_exceptions=True)
    log.info("gateway.stopped")


def _sandbox_server(host: str, port: int, public_url: str) -> uvicorn.Server:
    """The sandbox platform, served beside the product (`--sandbox-port`)."""
    from sandbox.app import SandboxSettings
    from sandbox.app import create_app as create_sandbox

    app = create_sandbox(SandboxSettings(public_url=public_url))
    # The sandbox's own config: its idle timeout is the platform's keep-alive timeout (sandbox/served.py).
    return OwnedServer(app.uvicorn_config(host=host, port=port, log_level="warning", log_config=None, access_log=False))


def _drain(loop: asyncio.AbstractEventLoop, gateway: Gateway, public: uvicorn.Server, delay_s: float) -> None:
    if gateway.lifecycle.draining:
        public.force_exit = public.should_exit = True  # a second signal: stop now
        return
    gateway.lifecycle.drain()
    log.info("gateway.draining", delay_s=delay_s, timeout_s=gateway.settings.drain_timeout_s)

    def stop() -> None:
        public.should_exit = True

    loop.call_later(delay_s, stop)
