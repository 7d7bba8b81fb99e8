r"""The balance stream's bus as the feed uses it: `Bus`, the one protocol both backends keep
(`gateway.balance.bus.memory` for one process, `gateway.balance.bus.redis` across instances).

A player's notes are short strings on the player's channel, heard by every process with a tab of
that player (`BalanceFeed.heard`): `b\n<event id>\n<balance JSON>` a balance that changed;
`p` a login or a money call (ask the platform now and shortly after);
`e\n<session tag or *>\n<reason>` the end of a session (or of all the player's sessions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gateway.balance.tabs import PlayerFeed


class Bus(Protocol):
    """Where a player's notes travel and its lease and newest balance live."""

    async def join(self, player: PlayerFeed) -> None:
        """The player's first tab here: this process hears the player's notes from now on."""
        ...

    async def leave(self, player: PlayerFeed) -> None:
        """The player's last tab here went: no more of its notes."""
        ...

    async def hold(self, player: PlayerFeed) -> tuple[bool, float | None]:
        """(whether this process polls for the player, wall-clock time of the last poll)."""
        ...

    async def current(self, player: PlayerFeed) -> tuple[str, str] | None:
        """The newest balance heard for the player: (event id, the platform's answer as JSON)."""
        ...

    async def store(self, skin_id: str, login: str, value: str) -> None:
        """The platform's balance: an event for every tab when it changed (only while someone listens)."""
        ...

    async def publish(self, skin_id: str, login: str, note: str) -> None:
        """A note to every process with a tab of the player."""
        ...
