"""The sandbox app factory: every catalogue route, plus its sandbox-only control calls."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from litestar import Litestar
from litestar.openapi import OpenAPIConfig

from sandbox import cashier, content, control, history, hostile, launches, players, sports
from sandbox.platform import Registry
from sandbox.seed import build
from sandbox.served import Served
from sandbox.state import PlatformState, Wire

MODULES = (players, cashier, history, content, sports, launches)
MAX_UPLOAD_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class SandboxSettings:
    seed: int = 7
    idle_timeout_s: float = 30 * 60
    deposit_approval_delay_s: float = 5.0
    public_url: str | None = None
    """Base address of this sandbox as a browser reaches it (demo game pages, media)."""
    wire: Wire = dataclasses.field(default_factory=Wire)
    """How it is served (sandbox/served.py): compressed, keep-alive limited; a balancer's ways off."""


def new_state(settings: SandboxSettings) -> PlatformState:
    state = PlatformState(
        seed=settings.seed,
        idle_timeout_s=settings.idle_timeout_s,
        deposit_approval_delay_s=settings.deposit_approval_delay_s,
        public_url=settings.public_url,
        wire=dataclasses.replace(settings.wire),
    )
    build(state)
    return state


def registry() -> Registry:
    """All sandbox handlers, one per catalogue route."""
    merged = Registry()
    for module in MODULES:
        merged.handlers.update(module.routes.handlers)
    return merged


def create_app(settings: SandboxSettings | None = None) -> Served:
    """The sandbox as a real platform is served (`Served`), around its Litestar app."""
    settings = settings or SandboxSettings()
    state = new_state(settings)
    return Served(platform_app(state, settings), state)


def platform_app(state: PlatformState, settings: SandboxSettings) -> Litestar:
    handlers = registry().route_handlers(state)
    return Litestar(
        route_handlers=[
            *handlers,
            *control.route_handlers(state, settings, new_state),
            *hostile.route_handlers(state),
            launches.demo_game_page,
            cashier.payment_page,
        ],
        openapi_config=OpenAPIConfig(title="Casino platform sandbox", version="1", path="/_sandbox/schema"),
        # Document uploads go up to 20 MB and more (uploadFile); Litestar's default is 10 MB.
        request_max_body_size=MAX_UPLOAD_BYTES,
    )
