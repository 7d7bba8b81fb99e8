"""The balance stream's bus within one process (`Bus` in memory mode): the lease is always this
process's, and notes go straight to the feed."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gateway.balance.feed import BalanceFeed
    from gateway.balance.tabs import PlayerFeed


class MemoryBus:
    """One process: the lease is always ours, notes go straight to the feed."""

    def __init__(self, feed: BalanceFeed) -> None:
        self.feed = feed
        self.epoch = secrets.token_hex(3)
        self.counter = 0

    async def join(self, player: PlayerFeed) -> None:
        return None

    async def leave(self, player: PlayerFeed) -> None:
        return None

    async def hold(self, player: PlayerFeed) -> tuple[bool, float | None]:
        return True, None

    async def current(self, player: PlayerFeed) -> tuple[str, str] | None:
        return player.last

    async def store(self, skin_id: str, login: str, value: str) -> None:
        player = self.feed.players.get((skin_id, login))
        if player is None or (player.last is not None and player.last[1] == value):
            return
        self.counter += 1
        self.feed.heard(skin_id, login, f"b\n{self.epoch}.{self.counter}\n{value}")

    async def publish(self, skin_id: str, login: str, note: str) -> None:
        self.feed.heard(skin_id, login, note)
