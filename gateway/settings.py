"""Gateway settings, parsed once from the environment and passed down.

Nothing else reads `os.environ`: `create_app(settings)` receives everything it needs.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    skins_file: Path | None = None
    """TOML skins file; None: one built-in skin pointing at the local sandbox."""
    redis_url: str | None = None
    """Shared state for many instances; None: in-process memory."""
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    """Signs XSRF tokens. Set `SECRET_KEY` so all instances (and restarts) agree."""
    production: bool = False
    """Secure and `__Host-` cookies, HSTS. Off only for local http development."""
    spa_dist: Path = ROOT / "spa" / "dist"
    sandbox_url: str = "http://127.0.0.1:8001"
    """Upstream of the built-in skin."""
    log_format: str = "auto"
    """`json`, `console`, or `auto` (console on a terminal, JSON otherwise)."""
    log_level: str = "info"
    max_json_body: int = 1024 * 1024
    """Largest JSON request the gateway reads (login, cashier...); uploads stream."""
    max_upload_body: int = 32 * 1024 * 1024
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses or CIDR ranges of the balancers whose X-Forwarded-For is believed."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        defaults = cls()
        skins = env.get("SKINS_FILE")
        return cls(
            skins_file=Path(skins) if skins else None,
            redis_url=env.get("REDIS_URL") or None,
            secret_key=env.get("SECRET_KEY") or defaults.secret_key,
            production=env.get("GATEWAY_ENV", "production").lower() not in {"development", "dev", "local"},
            spa_dist=Path(env.get("SPA_DIST", str(defaults.spa_dist))),
            sandbox_url=env.get("SANDBOX_URL", defaults.sandbox_url),
            log_format=env.get("LOG_FORMAT", defaults.log_format),
            log_level=env.get("LOG_LEVEL", defaults.log_level),
            trusted_proxies=tuple(
                p.strip()
                for p in env.get("TRUSTED_PROXIES", ",".join(defaults.trusted_proxies)).split(",")
                if p.strip()
            ),
        )
