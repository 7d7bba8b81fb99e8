"""Shared fixtures. REQUIRE_REDIS / REQUIRE_BROWSER turn missing-tool skips into failures."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in this
    thread until the session ends, and no async test can start its own loop after it."""
    items.sort(key=lambda item: "/tests/e2e/" in str(item.path).replace("\\", "/"))
