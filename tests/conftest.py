"""Shared fixtures. REQUIRE_REDIS / REQUIRE_BROWSER turn missing-tool skips into failures."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

import httpx
import pytest
import redis

from gateway.config.settings import Settings
from gateway.monitoring.observability import configure_logging
from tests.support.cluster import RedisServer, lift_sign_in_blocks


@pytest.fixture
def control(sandbox_url: str) -> Iterator[httpx.Client]:
    """The sandbox's control calls (`/_sandbox/*`) on a freshly reset platform: seeded anew, no
    fault, no call counted, served as it was started (`/_sandbox/wire`); faults cleared and the
    wire put back after the test. Each suite says where its sandbox
    listens with a `sandbox_url` fixture (its stack's, its cluster's)."""
    with httpx.Client(base_url=sandbox_url, timeout=30) as client:
        client.post("/_sandbox/reset").raise_for_status()
        client.delete("/_sandbox/faults")
        client.delete("/_sandbox/calls")
        yield client
        client.delete("/_sandbox/faults")
        client.delete("/_sandbox/wire")


@pytest.fixture(autouse=True)
def _logging_to_this_test() -> None:
    """Every test's log goes to its own output. Logging is configured per process, on the stdout of
    the moment: a test before may have left it writing to a capture pytest has since closed, and a
    line written there raised inside whatever logged it (under xdist, in whichever test came next,
    and inside an event loop's shutdown it left anyio's runner unusable for the rest of the worker)."""
    configure_logging(Settings(log_format="json"))


@pytest.fixture(autouse=True)
def _no_sign_in_block_outlives_its_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that revokes a player's sessions leaves their sign-in blocked for a quarter of an hour
    on its cluster's Redis; lifted after it, so the next test signs the demo players in again."""
    cluster = request.getfixturevalue("cluster") if "cluster" in request.fixturenames else None
    yield
    server = getattr(cluster, "redis", None)
    if isinstance(server, RedisServer):
        with contextlib.suppress(redis.RedisError):  # a test that left its Redis stopped has no blocks to lift
            lift_sign_in_blocks(server)


def pytest_configure(config: pytest.Config) -> None:
    """Files handed to xdist workers by size (its default under `--dist loadfile`) would put the
    browser tests before async ones in a worker, and every async test after them would fail."""
    option = config.option
    if getattr(option, "dist", "no") in ("loadfile", "loadscope") and getattr(option, "loadscopereorder", False):
        raise pytest.UsageError("with --dist loadfile, add --no-loadscope-reorder (as `make pytest` does)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in this
    thread until the session ends, and no async test can start its own loop after it."""
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path).replace("\\", "/"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Under `make`, how long the whole make run took, pytest's closing line still last."""
    started = os.environ.get("MAKE_TEST_STARTED", "")
    if started.isdigit():
        took = int(time.time()) - int(started)
        terminalreporter.write_line(f"make: {took // 60} min {took % 60} s since it began (checks, builds and pytest)")
