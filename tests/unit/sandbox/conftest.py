"""The sandbox in process (Litestar's TestClient), for the sandbox's own tests. The suites that
run a stack reach its sandbox over HTTP with the `control` fixture instead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from sandbox.app import SandboxSettings
from tests.support.platform import PlatformClient, sandbox_client


@pytest.fixture
def sandbox() -> Iterator[TestClient[Any]]:
    with sandbox_client(SandboxSettings(deposit_approval_delay_s=0.2)) as client:
        yield client


@pytest.fixture
def platform(sandbox: TestClient[Any]) -> PlatformClient:
    return PlatformClient(sandbox)


@pytest.fixture
def player(platform: PlatformClient) -> PlatformClient:
    """The demo player, logged in."""
    platform.login()
    return platform
