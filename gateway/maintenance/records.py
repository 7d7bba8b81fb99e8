"""What is kept of a change that does not run at once: scheduled for later (`Item`), or waiting
for a second operator (`Approval`). Both hold the request as it was sent (`asked`), so that when it
runs it goes the way of an immediate one, validated again then."""

from __future__ import annotations

import secrets
import time
from typing import Any, Literal

import msgspec

Kind = Literal["change", "rollback", "canary"]
ItemState = Literal["pending", "done", "failed", "cancelled"]
ApprovalState = Literal["pending", "approved", "rejected", "expired"]
APPROVAL_EXPIRES_S = 24 * 3600
"""A pending approval nobody decided is void after a day: what it was asked for may no longer hold."""


def new_id(prefix: str) -> str:
    return f"{prefix}-{int(time.time())}-{secrets.token_hex(3)}"


class Planned(msgspec.Struct, rename="camel", kw_only=True):
    """A change, rollback or canary start as an operator asked for it."""

    id: str
    kind: Kind
    skin: str
    upstream: str | None = None
    url: str | None = None
    """The new base URL (a change, a canary); None for a rollback (`asked["to"]`)."""
    by: str
    """Who asked."""
    via: str
    """`console` or `token`."""
    reason: str
    asked: dict[str, Any]
    """The request's body as sent (its `baseVersion`, `override`, `to`, `steps`, `thresholds`)."""
    created: float
    outcome: str | None = None
    """What became of it when it ran: `applied 12` or the refusal's code and words."""
    version: str | None = None
    """The configuration version it made, when it did."""
    ended: float | None = None
    endedBy: str | None = None
    endedReason: str | None = None


class Item(Planned, kw_only=True):
    """A change to run at `at` (once, on one instance)."""

    at: float
    state: ItemState = "pending"


class Approval(Planned, kw_only=True):
    """A change waiting for another operator; `at`: scheduled once approved (None: run then)."""

    state: ApprovalState = "pending"
    at: float | None = None
    expires: float

    def state_at(self, now: float) -> ApprovalState:
        return "expired" if self.state == "pending" and now >= self.expires else self.state


def public(record: Item | Approval, now: float) -> Item | Approval:
    """What the console reads: every field, an approval's state as of `now` (expired once past it)."""
    if isinstance(record, Approval):
        return msgspec.structs.replace(record, state=record.state_at(now))
    return record
