"""Each module here starts its own `cluster` (instances, Redis, sandbox) with what it needs."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.cluster import Cluster, sandbox_control


@pytest.fixture
def control(cluster: Cluster) -> Iterator[httpx.Client]:
    """The sandbox's control calls on a freshly reset platform."""
    with sandbox_control(cluster) as client:
        yield client
