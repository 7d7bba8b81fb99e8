"""Where the shared Redis is: one address, or the primary its Sentinels name. Read from the
environment by `gateway.config.settings` (`REDIS_URL`, `REDIS_SENTINELS`, ...); the store connects
to it (`gateway.store.redis.connect`, `gateway.store.sentinel.primary`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass(frozen=True)
class SharedRedis:
    """The Redis the instances share: one address, or the primary its Sentinels name (followed
    across failovers)."""

    url: str | None = field(default=None, repr=False)
    """`REDIS_URL`. With sentinels only its user, password, database and TLS (`rediss://`) count."""
    sentinels: tuple[tuple[str, int], ...] = ()
    """`REDIS_SENTINELS`: where to ask which server is the primary."""
    master: str | None = None
    """`REDIS_SENTINEL_MASTER`: the service name the sentinels monitor."""
    sentinel_password: str | None = field(default=None, repr=False)
    wait_replicas: int = 0
    """`REDIS_WAIT_REPLICAS`: replicas that must hold a money call's claim before the call goes out."""

    def __post_init__(self) -> None:
        if self.sentinels and not self.master:
            raise ValueError("REDIS_SENTINELS needs REDIS_SENTINEL_MASTER (the service name the sentinels monitor)")
        if self.master and not self.sentinels:
            raise ValueError("REDIS_SENTINEL_MASTER needs REDIS_SENTINELS (comma-separated host:port)")
        if self.sentinel_password and not self.sentinels:
            raise ValueError("REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not")
        if not self.sentinels and not self.url:
            raise ValueError("a shared Redis needs REDIS_URL or REDIS_SENTINELS")
        if self.wait_replicas < 0:
            raise ValueError(f"REDIS_WAIT_REPLICAS must be 0 or more, not {self.wait_replicas}")

    def describe(self) -> str:
        """Where the store is, for logs: no password."""
        if self.sentinels:
            return f"sentinel:{self.master}@" + ",".join(f"{host}:{port}" for host, port in self.sentinels)
        url = urlsplit(self.url or "")
        return f"{url.scheme}://{url.hostname}:{url.port or 6379}{url.path}"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SharedRedis | None:
        url, sentinels = env.get("REDIS_URL") or None, env.get("REDIS_SENTINELS", "").strip()
        wait = env.get("REDIS_WAIT_REPLICAS", "").strip() or "0"
        if not wait.isdigit():
            raise ValueError(f"REDIS_WAIT_REPLICAS must be a whole number, not {wait!r}")
        if url is None and not sentinels:
            for name in ("REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_PASSWORD"):
                if env.get(name):
                    raise ValueError(f"{name} is set but REDIS_SENTINELS is not")
            if int(wait):
                raise ValueError("REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_SENTINELS")
            return None
        return cls(
            url=url,
            sentinels=tuple(_address(part) for part in sentinels.split(",") if part.strip()),
            master=env.get("REDIS_SENTINEL_MASTER", "").strip() or None,
            sentinel_password=env.get("REDIS_SENTINEL_PASSWORD") or None,
            wait_replicas=int(wait),
        )


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"REDIS_SENTINELS: {text.strip()!r} is not host:port")
    return host.strip("[]"), int(port)
