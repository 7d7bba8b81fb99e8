"""Each module here starts its own `cluster` (instances, Redis, sandbox) with what it needs."""

from __future__ import annotations

from tests.support.fixtures import sandbox_url_fixture

sandbox_url = sandbox_url_fixture("cluster")
