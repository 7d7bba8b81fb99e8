"""`python -m gateway`: serve the gateway (optionally with the sandbox beside it)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
from collections.abc import Iterator

import uvicorn

from gateway.app import create_app
from gateway.settings import Settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gateway", description="Serve the casino BFF gateway.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1, help="processes (production: one per core)")
    parser.add_argument(
        "--with-sandbox", action="store_true", help="also serve the sandbox platform (the built-in skin's upstream)"
    )
    parser.add_argument("--sandbox-port", type=int, default=8001)
    args = parser.parse_args(argv)
    if args.with_sandbox:
        asyncio.run(_serve_with_sandbox(args.host, args.port, args.sandbox_port))
        return
    if args.workers > 1:
        uvicorn.run(
            "gateway.app:create_app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level="warning",
            access_log=False,
            proxy_headers=False,
        )
        return
    uvicorn.run(
        create_app(Settings.from_env()),
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
    )


class _Server(uvicorn.Server):
    """A uvicorn server that leaves signals to its owner, so that two servers in one loop
    stop together on Ctrl-C and the process exits 0."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def _serve_with_sandbox(host: str, port: int, sandbox_port: int) -> None:
    """Both servers in one process and one event loop: Ctrl-C stops both."""
    from sandbox.app import SandboxSettings
    from sandbox.app import create_app as create_sandbox

    sandbox_url = f"http://{host}:{sandbox_port}"
    settings = dataclasses.replace(Settings.from_env(), sandbox_url=sandbox_url)
    sandbox = _Server(
        uvicorn.Config(
            create_sandbox(SandboxSettings(public_url=sandbox_url)),
            host=host,
            port=sandbox_port,
            log_level="warning",
            access_log=False,
        )
    )
    gateway = _Server(uvicorn.Config(create_app(settings), host=host, port=port, log_level="warning", access_log=False))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _stop, sandbox, gateway)
    print(f"serving the product at http://{host}:{port} (sandbox platform at {sandbox_url})", flush=True)
    await asyncio.gather(sandbox.serve(), gateway.serve())


def _stop(*servers: uvicorn.Server) -> None:
    for server in servers:
        server.should_exit = True
