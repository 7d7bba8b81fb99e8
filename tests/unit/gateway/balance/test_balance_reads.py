"""What a proxied balance read tells the balance stream (`BalanceFeed.on_outcome`): only a value this
process has not seen for the player goes to the store, however often the player's tabs poll, and a
balance heard from another instance makes the one read before it new again."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any, cast

import pytest

from contracts.catalogue import BALANCE, ROUTES_BY_NAME
from gateway.balance.feed import BalanceFeed
from gateway.balance.tabs import PlayerFeed
from gateway.config.settings import EventsSettings
from gateway.state.outcome import Outcome

FIVE = b'{"success":true,"code":null,"values":[{"name":"balance","value":5000.0,"currency":"INR"}]}'
FIVE_SPACED = b'{"success": true, "code": null, "values": [{"name": "balance", "value": 5000.0, "currency": "INR"}]}'
FOUR = b'{"success":true,"code":null,"values":[{"name":"balance","value":4000.0,"currency":"INR"}]}'


class Stored:
    """The bus: what the feed hands the store, in order."""

    def __init__(self) -> None:
        self.values: list[tuple[str, str, str]] = []

    async def store(self, skin_id: str, login: str, value: str) -> None:
        self.values.append((skin_id, login, value))


@pytest.fixture
def feed_and_store() -> tuple[BalanceFeed, Stored]:
    stored = Stored()

    def later(chore: Coroutine[Any, Any, Any]) -> None:
        with contextlib.suppress(StopIteration):
            chore.send(None)  # the fake bus never waits: one step runs the chore to its end

    feed = BalanceFeed(
        EventsSettings(), cast(Any, None), cast(Any, None), cast(Any, None), lambda _: cast(Any, stored), later
    )
    return feed, stored


def read(feed: BalanceFeed, body: bytes, status: int = 200, login: str = "Demo1") -> None:
    session = SimpleNamespace(data=SimpleNamespace(logged_in=True, login=login), id="s1")
    feed.on_outcome("aurora", BALANCE, login, "s1", cast(Any, session), Outcome(status, {}, body))


def values(stored: Stored) -> list[float]:
    return [json.loads(value)["values"][0]["value"] for _, _, value in stored.values]


def test_a_polled_balance_goes_to_the_store_once_until_it_changes(feed_and_store: tuple[BalanceFeed, Stored]) -> None:
    feed, stored = feed_and_store
    for _ in range(5):
        read(feed, FIVE)
    read(feed, FIVE_SPACED)  # the same balance written otherwise: not new
    read(feed, FOUR)
    read(feed, FOUR)
    assert values(stored) == [5000.0, 4000.0]
    assert {(skin, login) for skin, login, _ in stored.values} == {("aurora", "demo1")}


def test_a_refused_or_unreadable_answer_tells_nothing(feed_and_store: tuple[BalanceFeed, Stored]) -> None:
    feed, stored = feed_and_store
    read(feed, FIVE, status=502)
    read(feed, b"<html>maintenance</html>")
    read(feed, b'{"success":false,"code":"SESSION_EXPIRED","values":[]}')
    assert stored.values == []


def test_a_balance_heard_from_elsewhere_makes_the_last_read_new_again(
    feed_and_store: tuple[BalanceFeed, Stored],
) -> None:
    """After 5,000 read here and 4,000 stored by another instance (the player has a tab here), a
    read of 5,000 again is news for the player's tabs: it goes to the store at once."""
    feed, stored = feed_and_store
    feed.players[("aurora", "demo1")] = PlayerFeed("aurora", "demo1")
    read(feed, FIVE)
    feed.heard("aurora", "demo1", "b\n7\n" + FOUR.decode())
    read(feed, FIVE)
    read(feed, FIVE)
    assert values(stored) == [5000.0, 5000.0]


def test_another_reads_answer_is_not_taken_for_a_balance_read(feed_and_store: tuple[BalanceFeed, Stored]) -> None:
    feed, stored = feed_and_store
    session = SimpleNamespace(data=SimpleNamespace(logged_in=True, login="demo1"), id="s1")
    feed.on_outcome("aurora", ROUTES_BY_NAME["getProfile"], "demo1", "s1", cast(Any, session), Outcome(200, {}, FIVE))
    assert stored.values == []
