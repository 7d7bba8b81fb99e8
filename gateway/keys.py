"""Every name the gateway gives a key or channel in the shared store, in one place.

All live under `bff:`; what belongs to one skin under `bff:<skin>:` (a purge or an audit of one
skin is a prefix). Each key has a TTL where it is written; the channels carry no state.
"""

from __future__ import annotations

SESSIONS = "bff:sessions"
"""The session store's namespace (Litestar's stores join it with ':')."""
CONFIG_OVERRIDES = "bff:config:overrides"
CONFIG_CHANNEL = "bff:config"
PRESENCE_CHANNEL = "bff:instance:"
"""+ an instance's id: the channel it listens on while it lives (`gateway.presence`)."""
CACHE = ":cache:"
"""What every content copy's key holds (the one-process store evicts those first)."""


def session(skin: str, session_id: str) -> str:
    """A session's key within the session store (`SESSIONS` is prefixed by the store)."""
    return f"{skin}:{session_id}"


def stored_session(skin: str, session_id: str) -> str:
    """The same session's full key, for writes that bypass the session store."""
    return f"{SESSIONS}:{session(skin, session_id)}"


def player_sessions(skin: str, login: str) -> str:
    return f"bff:{skin}:player-sessions:{login.lower()}"


def visitors_counter(skin: str, address: str) -> str:
    return f"bff:{skin}:visitors:{address}"


def visitors_index(skin: str) -> str:
    return f"bff:{skin}:visitors:~index"


def content_prefix(skin: str) -> str:
    return f"bff:{skin}{CACHE}"


def content(skin: str, path: str, sorted_query: str) -> str:
    return f"{content_prefix(skin)}{path}?{sorted_query}"


def content_index(content_key: str) -> str:
    """The skin's index of copies, from any of its copies' keys."""
    return content_key.split(CACHE, 1)[0] + CACHE + "~index"


def refreshing(content_key: str) -> str:
    return f"{content_key}:refreshing"


def idempotency(skin: str, key: str) -> str:
    return f"bff:{skin}:idem:{key}"


def idempotency_holder(record: str) -> str:
    return f"{record}:holder"


def flight_lease(flight: str) -> str:
    return f"bff:flight:lease:{flight}"


def flight_result(flight: str, holder: str) -> str:
    return f"bff:flight:result:{flight}:{holder}"


def flight_slot(slot: str) -> str:
    return f"bff:flight:slot:{slot}"


def rate_limit(skin: str, route: str, subject_kind: str, subject: str) -> str:
    return f"bff:{skin}:rl:{route}:{subject_kind}:{subject.lower()}"
