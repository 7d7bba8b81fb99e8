from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.fixtures import sandbox_url_fixture
from tests.support.stack import Stack, start_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(tmp_path_factory.mktemp("stack"))
    yield running
    assert running.stop() == 0, "a clean shutdown on Ctrl-C"


sandbox_url = sandbox_url_fixture("stack")


@pytest.fixture
def player(stack: Stack, control: httpx.Client) -> Iterator[Browser]:
    p = Browser(stack.url)
    yield p
    p.close()


@pytest.fixture
def upload_file(tmp_path: Path) -> Path:
    path = tmp_path / "id-proof.bin"
    with path.open("wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")  # a PNG's signature: the gateway checks the file is what it says
        for _ in range(20):
            f.write(b"\0" * (1024 * 1024))
    return path
