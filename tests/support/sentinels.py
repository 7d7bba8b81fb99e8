"""A Redis that fails over, as managed Redis services run it: a primary, its replicas and three
Redis Sentinels watching them (real `redis-server` processes, the sentinels in `--sentinel` mode)."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from tests.support.cluster import RedisServer, require_redis_server
from tests.support.stack import free_port

SERVICE = "bff"
NO_SYNC_DELAY = ("--repl-diskless-sync-delay", "0")
"""A replica's first sync starts at once, not after Redis 7's 5 s wait for more replicas."""


@dataclass
class SentinelProcess:
    binary: str
    port: int
    config: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self, primary_port: int, down_after_ms: int) -> None:
        self.config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {self.config.parent}\nlogfile {self.config.with_suffix('.log')}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {primary_port} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} {down_after_ms}\n"
            f"sentinel failover-timeout {SERVICE} 3000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
        )
        self.process = subprocess.Popen(
            [self.binary, str(self.config), "--sentinel"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=1, decode_responses=True)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@dataclass
class ReplicaSet:
    primary: RedisServer
    replicas: list[RedisServer]
    sentinels: list[SentinelProcess] = field(default_factory=list)

    @property
    def addresses(self) -> str:
        """`REDIS_SENTINELS`."""
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def current(self) -> RedisServer:
        """The primary as the first sentinel that answers names it."""
        for sentinel in self.sentinels:
            try:
                with sentinel.client() as client:
                    _, port = client.sentinel_get_master_addr_by_name(SERVICE)
                return next(s for s in [self.primary, *self.replicas] if s.port == int(port))
            except redis.RedisError:
                continue
        raise AssertionError("no sentinel answers")

    def promoted(self, besides: RedisServer) -> bool:
        """Whether a server other than `besides` has become a primary (it says so itself, before the sentinels do)."""
        for server in [self.primary, *self.replicas]:
            if server is not besides and server.process is not None:
                with server.client() as client:
                    if client.info("replication").get("role") == "master":
                        return True
        return False

    def revive(self) -> None:
        """Servers killed earlier start again as replicas of the current primary; back when it counts them."""
        current, servers = self.current(), [self.primary, *self.replicas]
        for server in servers:
            if server.process is None:
                server.options = ("--replicaof", "127.0.0.1", str(current.port), *NO_SYNC_DELAY)
                server.start()
        _until(lambda: online_replicas(current) == len(servers) - 1, "replicas back")

    def stop(self) -> None:
        for process in [*self.sentinels, *self.replicas, self.primary]:
            process.stop()


def start_replica_set(workdir: Path, replicas: int = 2, sentinels: int = 3, down_after_ms: int = 1500) -> ReplicaSet:
    binary = require_redis_server()
    primary = RedisServer(binary, free_port(), workdir / "primary", options=NO_SYNC_DELAY)
    group = ReplicaSet(primary, [])
    try:
        for directory in [primary.workdir, *(workdir / f"replica-{n}" for n in range(replicas))]:
            directory.mkdir()
        primary.start()
        for n in range(replicas):
            replica = RedisServer(
                binary,
                free_port(),
                workdir / f"replica-{n}",
                options=("--replicaof", "127.0.0.1", str(primary.port), *NO_SYNC_DELAY),
            )
            replica.start()
            group.replicas.append(replica)
        _until(lambda: online_replicas(primary) == replicas, "replicas in sync")
        for n in range(sentinels):
            sentinel = SentinelProcess(binary, free_port(), workdir / f"sentinel-{n}.conf")
            sentinel.start(primary.port, down_after_ms)
            group.sentinels.append(sentinel)
        _until(lambda: all(_sees_everyone(s, replicas, sentinels) for s in group.sentinels), "sentinels agreed")
    except BaseException:
        group.stop()
        raise
    return group


def online_replicas(primary: RedisServer) -> int:
    """Replicas the primary counts (a replica says its link is up before the primary has its first ack)."""
    with primary.client() as client:
        info = client.info("replication")
    return sum(
        1
        for name, value in info.items()
        if name.startswith("slave") and isinstance(value, dict) and value.get("state") == "online"
    )


def _sees_everyone(sentinel: SentinelProcess, replicas: int, sentinels: int) -> bool:
    try:
        with sentinel.client() as client:
            state = client.sentinel_master(SERVICE)
    except redis.RedisError:
        return False
    return int(state["num-slaves"]) == replicas and int(state["num-other-sentinels"]) == sentinels - 1


def _until(check: object, what: str, within_s: float = 20.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise RuntimeError(f"no {what} within {within_s} s")
