"""Each module here starts its own `cluster` (instances, Redis, sandbox) with what it needs."""

from __future__ import annotations

import pytest

from tests.support.cluster import Cluster


@pytest.fixture
def sandbox_url(cluster: Cluster) -> str:
    """Where `control` (tests/conftest.py) reaches the cluster's sandbox."""
    return cluster.sandbox.url
