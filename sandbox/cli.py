"""`python -m sandbox`: serve the sandbox platform."""

from __future__ import annotations

import argparse

import uvicorn

from sandbox.app import SandboxSettings, create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description="Serve the sandbox casino platform.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--seed", type=int, default=SandboxSettings.seed)
    parser.add_argument("--idle-timeout", type=float, default=SandboxSettings.idle_timeout_s, help="seconds")
    parser.add_argument(
        "--deposit-delay",
        type=float,
        default=SandboxSettings.deposit_approval_delay_s,
        help="seconds before a deposit turns Approved",
    )
    parser.add_argument("--public-url", default=None, help="base URL browsers use to reach the sandbox")
    args = parser.parse_args(argv)
    settings = SandboxSettings(
        seed=args.seed,
        idle_timeout_s=args.idle_timeout,
        deposit_approval_delay_s=args.deposit_delay,
        public_url=args.public_url,
    )
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level="warning")
