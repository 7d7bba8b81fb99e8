"""The fixtures several modules need, each written once: a module or a suite's conftest takes one
by calling its factory with its own options (`cluster = cluster_fixture("status", instances=2)`),
or by importing it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.cluster import Cluster, RedisServer, start_cluster

Never = Iterable[str] | Callable[[], Iterable[str]] | None
"""What no gateway of a cluster may have logged, checked as it stops (`Cluster.assert_clean_logs`),
or a function giving it then; None: its logs are not checked."""
Env = dict[str, str] | Callable[[Path], dict[str, str]] | None
"""The gateways' own variables, or a function of the cluster's working folder giving them (an
operators file written there)."""


@pytest.fixture(name="anyio_backend")
def asyncio_backend() -> str:
    """The async tests' one event loop: asyncio's."""
    return "asyncio"


@pytest.fixture(
    name="anyio_backend",
    params=[("asyncio", {"use_uvloop": False}), ("asyncio", {"use_uvloop": True})],
    ids=["asyncio", "uvloop"],
)
def asyncio_and_uvloop(request: pytest.FixtureRequest) -> tuple[str, dict[str, bool]]:
    """Each test on asyncio's loop and on uvloop's: the gateway serves on uvloop, whose transports
    differ from asyncio's (one broke the pool)."""
    backend: tuple[str, dict[str, bool]] = request.param
    return backend


@contextlib.contextmanager
def cluster_running(
    workdir: Path,
    *,
    instances: int = 3,
    env: Env = None,
    extra_skins: str = "",
    redis: RedisServer | Callable[[Path], RedisServer | None] | None = None,
    never: Never = (),
) -> Iterator[Cluster]:
    """A cluster (`start_cluster`) for the block, stopped after it; then its logs checked for
    `never` (and for 500s and unhandled errors) unless `never` is None."""
    running = start_cluster(
        workdir,
        instances=instances,
        env=env(workdir) if callable(env) else env,
        extra_skins=extra_skins,
        redis=redis(workdir) if callable(redis) else redis,
    )
    try:
        yield running
    finally:
        running.stop()
    if never is not None:
        running.assert_clean_logs(*(never() if callable(never) else never))


def cluster_fixture(
    folder: str,
    *,
    scope: Any = "module",
    instances: int = 3,
    env: Env = None,
    extra_skins: str = "",
    redis: Callable[[Path], RedisServer | None] | None = None,
    never: Never = (),
) -> Any:
    """A module's `cluster` fixture: `cluster_running` in a fresh folder named `folder`."""

    @pytest.fixture(scope=scope, name="cluster")
    def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
        workdir = tmp_path_factory.mktemp(folder)
        options = {"instances": instances, "env": env, "extra_skins": extra_skins, "redis": redis, "never": never}
        with cluster_running(workdir, **options) as running:  # type: ignore[arg-type]
            yield running

    return cluster


def sandbox_url_of(running: Any) -> str:
    """Where the sandbox of a running product listens: a cluster's or a platform's (`.sandbox`), a
    stack's or a site's (`.sandbox_url`), or that of the first of a pair."""
    if isinstance(running, tuple):
        running = running[0]
    sandbox = getattr(running, "sandbox", None)
    return str(sandbox.url if sandbox is not None else running.sandbox_url)


def sandbox_url_fixture(source: str) -> Any:
    """A `sandbox_url` fixture: where `control` (tests/conftest.py) reaches the sandbox of the
    fixture named `source` (the module's cluster, the suite's stack)."""

    @pytest.fixture(name="sandbox_url")
    def sandbox_url(request: pytest.FixtureRequest) -> str:
        return sandbox_url_of(request.getfixturevalue(source))

    return sandbox_url


def upstream_calls(sandbox: httpx.Client | str, call: str | None = None) -> int:
    """How often the sandbox was called since its counts were last cleared (`/_sandbox/calls`):
    for `call` (a call's name, `aurora balance` for one site's), or for every call together.
    `sandbox`: a client on it (`control`) or its URL."""
    if isinstance(sandbox, str):
        counts: dict[str, int] = httpx.get(sandbox + "/_sandbox/calls").json()
    else:
        counts = sandbox.get("/_sandbox/calls").json()
    return sum(counts.values()) if call is None else int(counts.get(call, 0))
