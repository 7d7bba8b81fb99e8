"""`python -m sandbox`: serve the sandbox platform."""

from __future__ import annotations

import argparse

import uvicorn

from sandbox.app import SandboxSettings, create_app
from sandbox.state import Wire


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
    wire_arguments(parser.add_argument_group("how it is served (PUT /_sandbox/wire changes them live)"))
    args = parser.parse_args(argv)
    settings = SandboxSettings(
        seed=args.seed,
        idle_timeout_s=args.idle_timeout,
        deposit_approval_delay_s=args.deposit_delay,
        public_url=args.public_url,
        wire=wire_of(args),
    )
    app = create_app(settings)
    uvicorn.Server(app.uvicorn_config(host=args.host, port=args.port, log_level="warning")).run()


def wire_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--plain", action="store_true", help="answers never compressed (the kind sandbox)")
    group.add_argument(
        "--keepalive-requests", type=int, default=Wire.keepalive_requests, help="requests a connection carries (0: any)"
    )
    group.add_argument(
        "--keepalive-timeout", type=float, default=Wire.keepalive_timeout_s, help="seconds a connection stays idle"
    )
    group.add_argument("--balancer-errors", action="store_true", help="502/503/504 as a balancer's HTML pages")
    group.add_argument("--sticky", action="store_true", help="a sticky-session cookie (AWSALB) per backend")
    group.add_argument("--trickle-ms", type=int, default=0, help="answers sent in small pieces, this far apart")
    group.add_argument("--extra-fields", action="store_true", help="undocumented fields in every JSON object")


def wire_of(args: argparse.Namespace) -> Wire:
    return Wire(
        compress=not args.plain,
        keepalive_requests=args.keepalive_requests,
        keepalive_timeout_s=args.keepalive_timeout,
        balancer_errors=args.balancer_errors,
        sticky=args.sticky,
        trickle_ms=args.trickle_ms,
        extra_fields=args.extra_fields,
    )
