"""The 409 of a change or rollback whose skin moved on meanwhile: who changed what, and when.

`LiveConfig.commit` refuses a write when a skin it touches has another version than it had in the
write's base version (`Commit.moved`). The answer names, for each upstream of those skins that
differs from the base, the newest history entry that changed it: "maria changed aurora's sbapi to
https://... at 14:02:11 UTC", in `message` for anyone reading the body, and field by field in
`changes` for the console, which words it in the operator's language.
"""

from __future__ import annotations

import msgspec

from gateway.config.history import Action, Change, HistoryEntry, diff, iso
from gateway.config.live import Commit, LiveConfig

WALK = 200
"""History entries read back from the newest to find who made each change (one page)."""


class Changed(msgspec.Struct, kw_only=True):
    """One upstream changed since the write's base, and the history entry that changed it last."""

    skin: str
    upstream: str
    before: str | None
    after: str | None
    who: str | None = None
    via: str | None = None
    at: str | None = None
    version: str | None = None
    action: Action | None = None


async def since(config: LiveConfig, base: str, commit: Commit) -> list[Changed] | None:
    """What changed since version `base` on the skins the conflict names (every skin when it names
    none), each with who did it; None: no such version is known."""
    entry = await config.versions.find(base)
    if entry is None:
        return None
    skins = set(commit.moved)
    changes = [c for c in diff(entry.upstreams, config.skins.state()) if not skins or c.skin in skins]
    newer = await _newer(config, entry)
    return [_blamed(change, newer) for change in changes]


async def _newer(config: LiveConfig, base: HistoryEntry) -> list[HistoryEntry]:
    """The entries after `base`, newest first (at most `WALK` of them)."""
    found = []
    for entry in await config.versions.page(WALK, None):
        if entry.id == base.id:
            break
        found.append(entry)
    return found


def _blamed(change: Change, newer: list[HistoryEntry]) -> Changed:
    changed = Changed(skin=change.skin, upstream=change.upstream, before=change.before, after=change.after)
    for entry in newer:
        if any(c.skin == change.skin and c.upstream == change.upstream for c in entry.changes):
            changed.who, changed.via, changed.version, changed.action = (
                entry.who,
                entry.via,
                entry.version,
                entry.action,
            )
            changed.at = iso(entry.at)
            break
    return changed


def sentence(changes: list[Changed]) -> str:
    """`maria changed aurora's sbapi to https://x at 2026-12-02 14:02:11 UTC; ...` (no one named: the change alone)."""
    said = []
    for c in changes:
        what = f"{c.skin}'s {c.upstream} to {c.after or '(none)'}"
        when = f" at {c.at[:10]} {c.at[11:19]} UTC" if c.at else ""
        said.append(f"{c.who} changed {what}{when}" if c.who else f"{what} changed")
    return "; ".join(said) or "The configuration changed since that version"
