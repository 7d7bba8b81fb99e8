"""Every name the gateway gives a key or channel in the shared store, in one place.

All live under `bff:`; what belongs to one skin under `bff:<skin>:` (a purge or an audit of one
skin is a prefix). Each key has a TTL where it is written; the channels carry no state.
"""

from __future__ import annotations

SESSIONS = "bff:sessions"
"""The session store's namespace (Litestar's stores join it with ':')."""
SESSION_CHANGES = "bff:sessions:changed"
"""Where a session's write or delete is announced, `<instance>|<key>` (`gateway.state.replicas`)."""
CONFIG_OVERRIDES = "bff:config:overrides"
CONFIG_CHANNEL = "bff:config"
CONFIG_HISTORY = "bff:config:history"
"""A stream: every configuration version, who made it and why (`gateway.config.history`)."""
CONFIG_VERSIONS = "bff:config:versions"
"""A hash: version -> its newest entry's id in `CONFIG_HISTORY`."""
INSTANCES = "bff:instances"
"""A hash: instance id -> what it runs (`gateway.monitoring.instances`); live ones listen on `PRESENCE_CHANNEL`."""
INSTANCES_SEEN = "bff:instances:seen"
"""A hash: instance id -> when it last beat (epoch seconds, `gateway.monitoring.instances`)."""
TIMELINE = "bff:timeline"
"""The event timeline's Redis stream (`gateway.monitoring.events`), bounded by `XADD MAXLEN ~`."""
TIMELINE_STATE = "bff:timeline:state:"
"""+ a subject (`upstream:aurora/api`): the cluster's last recorded state of it, `<state>|<since>`."""
TIMELINE_CLAIM = "bff:timeline:claim:"
"""+ an event's key: the one instance that writes an event every instance saw (SET NX EX)."""
PRESENCE_CHANNEL = "bff:instance:"
"""+ an instance's id: the channel it listens on while it lives (`gateway.state.presence`)."""
CANARY = "bff:canary:"
"""+ a skin's id: its canary's record, live or the last ended (`gateway.canary.store`)."""
CANARY_CHANNEL = "bff:canary"
"""Where a canary record's write is announced (the skin's id): every instance re-reads it at once."""
CANARY_LEASE = "bff:canary-lease"
"""The one canary controller in the cluster: its holder's token, `SET NX PX`, renewed (`gateway.canary.controller`)."""
PLANS = "bff:plans:"
"""+ `maintenance`, `scheduled` or `approvals`: a hash, id -> one record as JSON (`gateway.maintenance`);
a write is announced on `PLANS_CHANNEL` (the hash's name), and every instance reads that hash again."""
PLANS_CHANNEL = "bff:plans"
PLANS_CLAIM = "bff:plans:claim:"
"""+ a record's id: the one instance (or operator) that runs, cancels or decides it (SET NX EX)."""
AUDIT = "bff:audit"
"""The audit trail's Redis stream (`gateway.accounts.audit`), bounded by `XADD MAXLEN ~`."""
AUDIT_HEAD = "bff:audit:head"
"""The hash of the trail's newest entry, moved only by the append script (no TTL: the chain's end)."""


def audit_claim(event: str) -> str:
    """`bff:audit:once:<digest>`: one instance's claim to record an event the others saw too."""
    return f"bff:audit:once:{event}"


CONSOLE = "console"
"""The operators' console: its sessions' and sign-in limits' keys, `bff:console:...`."""
CACHE = ":cache:"
"""What every content copy's key holds (the one-process store evicts those first)."""


def session(skin: str, session_id: str) -> str:
    """A session's key within the session store (`SESSIONS` is prefixed by the store)."""
    return f"{skin}:{session_id}"


def stored_session(skin: str, session_id: str) -> str:
    """The same session's full key, for writes that bypass the session store."""
    return f"{SESSIONS}:{session(skin, session_id)}"


PLAYER_SESSIONS, VISITORS, IDEMPOTENCY, RATE_LIMITS, SERIES = "player-sessions", "visitors", "idem", "rl", "series"
"""Kinds of keys a skin owns, besides its content copies (`CACHE`); `SERIES`: the console's charts, an hour a key."""


def of_skin(skin: str, kind: str, *parts: str) -> str:
    """`bff:<skin>:<kind>:<part>...`: what belongs to one skin (a purge or an audit is a prefix)."""
    return ":".join(("bff", skin, kind, *parts))


def console(kind: str, digest: str) -> str:
    """`bff:console:<kind>:<digest>`: a console session's record under the SHA-256 of its cookie
    (a store dump holds no cookie), a sign-in limit's notice."""
    return f"bff:{CONSOLE}:{kind}:{digest}"


def content_prefix(skin: str) -> str:
    return f"bff:{skin}{CACHE}"


def content(skin: str, path: str, sorted_query: str) -> str:
    return f"{content_prefix(skin)}{path}?{sorted_query}"


def content_index(content_key: str) -> str:
    """The skin's index of copies, from any of its copies' keys."""
    return content_key.split(CACHE, 1)[0] + CACHE + "~index"


def beside(key: str, what: str) -> str:
    """A key that goes with another: a copy's refresh lock, an idempotency record's holder."""
    return f"{key}:{what}"


def flight(kind: str, *parts: str) -> str:
    """`bff:flight:<lease|result|slot>:...`: a flight joined across instances (not a skin's)."""
    return ":".join(("bff:flight", kind, *parts))


def exclusive_slot(skin: str, session: str, route: str) -> str:
    """One session's call in flight on an exclusive route: taken by an idempotency record's claim,
    or by a shared flight (`flight("slot", "<skin>:<session>:<route>")`, the same key)."""
    return flight("slot", skin, session, route)


EVENTS = "events"
"""A player's balance feed (`gateway.balance.feed`): `bff:<skin>:events:<login>` is its
pub/sub channel, `...:lease` names the instance that polls the platform for it, `...:last` holds
its newest balance and event id. Both keys go when the player's last stream does."""


def events_channel(skin: str, login: str) -> str:
    return of_skin(skin, EVENTS, login)


def events_lease(skin: str, login: str) -> str:
    return of_skin(skin, EVENTS, login, "lease")


def events_last(skin: str, login: str) -> str:
    return of_skin(skin, EVENTS, login, "last")


EVENTS_CONTROL = "bff:events"
"""What every instance's events subscription listens on from its start (its connection is up)."""
