from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.stack import Stack, start_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(tmp_path_factory.mktemp("stack"))
    yield running
    assert running.stop() == 0, "a clean shutdown on Ctrl-C"


@pytest.fixture
def control(stack: Stack) -> Iterator[httpx.Client]:
    """The sandbox's control calls."""
    with httpx.Client(base_url=stack.sandbox_url) as client:
        client.post("/_sandbox/reset")
        yield client


class Player:
    """A browser's view of the product: one cookie jar, the XSRF token echoed."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        assert self.http.get("/bff/session").status_code == 200

    def xsrf(self) -> dict[str, str]:
        return {"X-XSRF-TOKEN": self.http.cookies.get("XSRF-TOKEN") or ""}

    def post(self, path: str, body: object = None, **kw: object) -> httpx.Response:
        return self.http.post(path, json={} if body is None else body, headers=self.xsrf(), **kw)  # type: ignore[arg-type]

    def login(self, login: str = "demo1", password: str = "demo123") -> dict[str, object]:
        answer = self.post("/api/player/login", {"login": login, "password": password})
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        assert body["success"] is True, body
        return body


@pytest.fixture
def player(stack: Stack, control: httpx.Client) -> Iterator[Player]:
    p = Player(stack.url)
    yield p
    p.http.close()


@pytest.fixture
def upload_file(tmp_path: Path) -> Path:
    path = tmp_path / "id-proof.bin"
    with path.open("wb") as f:
        chunk = b"\x89PNG" + b"\0" * (1024 * 1024 - 4)
        for _ in range(20):
            f.write(chunk)
    return path
