"""The product in subprocesses (gateway + sandbox), attacked from outside.

Every secret a test uses is registered in `secrets`; at the end of the session the whole
gateway log must hold none of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fixtures import sandbox_url_fixture
from tests.support.stack import Stack, start_stack


@pytest.fixture(scope="session")
def secrets() -> set[str]:
    return {"demo123", "pampa123"}


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory, secrets: set[str]) -> Iterator[Stack]:
    # Short listener deadlines so the slow-client cases take seconds, not the default 10-15.
    running = start_stack(
        tmp_path_factory.mktemp("security"), env={"HEADER_TIMEOUT_S": "2", "BODY_IDLE_TIMEOUT_S": "2"}
    )
    yield running
    assert running.stop() == 0
    logs = running.logs()
    leaked = sorted(secret for secret in secrets if secret and secret in logs)
    assert not leaked, f"the gateway's log holds secrets used by the suite: {leaked}"
    failures = [line for line in logs.splitlines() if '"status":500' in line]
    assert not failures, f"whatever was thrown at it, the gateway never answered 500: {failures[:3]}"


@pytest.fixture(scope="session")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The product as deployed (GATEWAY_ENV=production): secure cookies, HSTS."""
    running = start_stack(tmp_path_factory.mktemp("production"), env={"GATEWAY_ENV": "production"})
    yield running
    assert running.stop() == 0


sandbox_url = sandbox_url_fixture("stack")


def log_dir(stack: Stack) -> Path:
    return stack.log_path.parent
