"""After an operator ends a player's sessions, that login's sign-ins on that skin are refused for
`SIGN_IN_BLOCK_S`: kept in the shared store (so on every instance), case-insensitive, per skin, and
never a refusal of every sign-in while the store is away."""

from __future__ import annotations

import pytest

from gateway.state.session import block_sign_in, sign_in_wait
from gateway.store import StoreUnavailable
from gateway.store.memory import MemoryShared

pytestmark = pytest.mark.anyio


async def test_a_block_holds_for_its_time_for_that_login_on_that_skin_only() -> None:
    shared = MemoryShared()
    until = await block_sign_in(shared, "aurora", "Demo1", 900)
    assert until is not None
    assert 899 <= await sign_in_wait(shared, "aurora", "demo1") <= 900
    assert await sign_in_wait(shared, "aurora", "DEMO1") > 0, "logins are case-insensitive"
    assert await sign_in_wait(shared, "pampa", "demo1") == 0
    assert await sign_in_wait(shared, "aurora", "demo2") == 0


async def test_no_block_when_it_is_turned_off() -> None:
    shared = MemoryShared()
    assert await block_sign_in(shared, "aurora", "demo1", 0) is None
    assert await sign_in_wait(shared, "aurora", "demo1") == 0


class Away(MemoryShared):
    async def get(self, key: str) -> bytes | None:
        raise StoreUnavailable("paused")


async def test_with_the_store_away_a_sign_in_goes_on() -> None:
    assert await sign_in_wait(Away(), "aurora", "demo1") == 0
