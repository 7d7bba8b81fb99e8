"""The answers of changes and rollbacks (`gateway.console.changes`, `gateway.console.history`):
a preview, a version made live, a write refused as made from a version since moved on, and the
configuration's history."""

from __future__ import annotations

import msgspec

from gateway.config.history import Action, Change, HistoryEntry, iso
from gateway.config.probe import Probed
from gateway.console.conflicts import Changed
from gateway.console.contract import Checked
from gateway.monitoring.instances import Acknowledged


class Preview(msgspec.Struct, rename="camel", kw_only=True):
    """changes/preview and rollback/preview: what a write would change, each new base URL probed and
    checked against the platform's contract (the first of them also as `probe` and `check`)."""

    base_version: str
    current: str
    stale: bool
    """A skin it touches moved on since `base_version`: the write would conflict."""
    changes: list[Change]
    probe: Probed | None
    probes: list[Probed]
    check: Checked | None
    checks: list[Checked]


class RollbackPreview(Preview, kw_only=True):
    """rollback/preview's."""

    to: str
    """The version it goes back to."""
    file_differs: bool
    """The skins file changed since that version."""


class Applied(msgspec.Struct, rename="camel", kw_only=True):
    """What an applied change or rollback answers."""

    outcome: str = "applied"
    """What the bearer API answered before it was versioned: scripts read it."""
    version: str
    previous: str
    changes: list[Change]
    live: Acknowledged


class RolledBack(Applied, kw_only=True):
    """What an applied rollback answers."""

    to: str
    file_differs: bool


class VersionConflict(msgspec.Struct, rename="camel", kw_only=True):
    """409 VERSION_CONFLICT: a skin the write touches changed since its `baseVersion`."""

    code: str = "VERSION_CONFLICT"
    message: str
    request_id: str
    current: str
    """The configuration version now current: the base to start again from."""
    skins: list[str]
    """The skins the write touches that moved meanwhile (a change to another skin never conflicts)."""
    changes: list[Changed]


class VersionView(msgspec.Struct, kw_only=True):
    """What the console shows of a version (`shown`)."""

    id: str
    """The history entry's own id (a version can come back: the same file and overrides again)."""
    version: str
    previous: str | None
    at: str
    who: str
    via: str
    reason: str | None
    action: Action
    changes: list[Change]
    skins: dict[str, str]
    """Each skin's own version in this one: what a write made from it is checked against."""


def shown(entry: HistoryEntry) -> VersionView:
    """What the console shows of a history entry."""
    return VersionView(
        id=entry.id,
        version=entry.version,
        previous=entry.previous,
        at=iso(entry.at),
        who=entry.who,
        via=entry.via,
        reason=entry.reason,
        action=entry.action,
        changes=entry.changes,
        skins=entry.skins,
    )


class HistoryPage(msgspec.Struct):
    """The configuration's versions, newest first, and the version now current."""

    current: str
    versions: list[VersionView]
    next: str | None
    """The next (older) page's cursor; None on the last page."""
