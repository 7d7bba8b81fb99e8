"""The audit trail's hash chain: each entry carries the previous entry's hash (`prev`) and its
own (`hash`, SHA-256 over the entry's canonical msgspec JSON without `hash`, `prev` included),
so that an edited byte, a deleted, inserted, forged or replayed entry breaks a link that
`Verifier` finds, oldest entry first.

The first entry ever written has no `prev`. A trail whose oldest kept entry has one was trimmed
(the Redis stream's `MAXLEN`): that entry anchors the chain, and what came before it is not
checked. Entries written before the chain existed (no `hash`) are passed over while no chained
entry has been seen. The hash is unkeyed: whoever may rewrite every entry from the edited one
on, and the stream's head, can make a consistent trail; the chain catches the edits that stop short.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Protocol, TypeVar, cast

import msgspec


class Chained(Protocol):
    """What the chain needs of an entry (`gateway.accounts.audit.AuditEntry`, a frozen Struct)."""

    @property
    def id(self) -> str | None: ...
    @property
    def at(self) -> str | None: ...
    @property
    def prev(self) -> str | None: ...
    @property
    def hash(self) -> str | None: ...


E = TypeVar("E", bound=Chained)

Problem = Literal["altered", "unlinked", "replayed", "unreadable", "truncated", "unanchored", "deleted"]


def digest(entry: Chained) -> str:
    """The entry's own hash: over its canonical JSON, `hash` left out (`prev` and, in the file, `id` in)."""
    return hashlib.sha256(msgspec.json.encode(_replaced(entry, hash=None))).hexdigest()


def linked(entry: E, prev: str | None) -> E:
    """`entry` chained after the entry whose hash is `prev` (None: the first entry)."""
    entry = _replaced(entry, prev=prev, hash=None)
    return _replaced(entry, hash=digest(entry))


def _replaced(entry: E, **changes: str | None) -> E:
    """`msgspec.structs.replace` for any chained Struct (the protocol hides that it is one)."""
    return cast("E", msgspec.structs.replace(cast("Any", entry), **changes))


class Break(msgspec.Struct, frozen=True):
    """The first broken link: at which entry (its id; a file's line number too), and what."""

    problem: Problem
    at: str | None
    line: int | None
    message: str


class ChainCheck(msgspec.Struct, frozen=True):
    intact: bool
    checked: int
    """Chained entries checked."""
    first: str | None
    """The oldest entry checked (it anchors the chain)."""
    last: str | None
    """The newest entry found intact (up to the break, when there is one)."""
    lastAt: str | None
    trimmed: bool
    """The oldest entry names a previous one that is no longer kept (the stream's bound)."""
    broken: Break | None = None


class Verifier:
    """Takes the trail's entries as stored, oldest first, and keeps the first broken link."""

    def __init__(self, trimmable: bool, kind: type[Chained]) -> None:
        self.trimmable = trimmable
        self.kind = kind
        """The oldest entry may name a trimmed one (the stream); in the file it must be the first."""
        self.checked = 0
        self.first: str | None = None
        self.last: Chained | None = None
        self.trimmed = False
        self.broken: Break | None = None
        self._seen: set[str] = set()
        self._unreadable: int | None = None

    def unreadable(self, line: int) -> None:
        """A line that is not an entry: torn by a crash (the next entry then links over it) or edited."""
        self._unreadable = self._unreadable or line

    def take(self, raw: bytes, at: str | None, line: int | None = None) -> bool:
        """One stored entry (`raw`, exactly as kept) at position `at` (None: its own `id`); False
        once the chain is broken."""
        if self.broken is not None:
            return False
        try:
            entry = msgspec.json.decode(raw, type=self.kind)
        except (msgspec.DecodeError, msgspec.ValidationError):
            self.unreadable(line or 0)
            return True
        at = at or entry.id
        problem = self._problem(entry, raw)
        if problem is not None:
            self.broken = Break(problem[0], at, line, problem[1])
            return False
        if entry.hash is not None:
            self._seen.add(entry.hash)
            self.first = self.first or at
            self.checked += 1
            self.last = _replaced(entry, id=at)
            self._unreadable = None
        return True

    def _problem(self, entry: Chained, raw: bytes) -> tuple[Problem, str] | None:
        if entry.hash is None:
            return ("altered", "its hash was removed") if self.last is not None else None  # before the chain
        if msgspec.json.encode(entry) != raw or digest(entry) != entry.hash:
            return "altered", "its content does not match its hash (edited)"
        if entry.hash in self._seen:
            return "replayed", "a copy of an earlier entry"
        if self.last is None:
            if entry.prev is None:
                return None
            if self.trimmable:
                self.trimmed = True
                return None
            return "unanchored", "the entries before it were removed"
        if entry.prev == self.last.hash:
            return None
        if self._unreadable is not None:
            return "unreadable", f"line {self._unreadable} is not an entry, and it was not a torn write"
        return "unlinked", "it does not follow the entry before it (one deleted, or this one inserted)"

    def head(self, expected: str | None) -> None:
        """The entry the writers last wrote (`expected`, read before the entries; None: unknown) must
        be among them: else the newest ones were deleted."""
        if self.broken is None and expected is not None and expected not in self._seen:
            at = self.last.id if self.last is not None else None
            self.broken = Break("truncated", at, None, "entries after it were deleted")

    def on_delete(self, at: str) -> None:
        """The store says an entry up to `at` was deleted one by one (not trimmed by the bound)."""
        if self.broken is None:
            self.broken = Break("deleted", at, None, "an entry was deleted from the stream (XDEL), not trimmed")

    def verdict(self) -> ChainCheck:
        last = self.last
        return ChainCheck(
            self.broken is None,
            self.checked,
            self.first,
            last.id if last else None,
            last.at if last else None,
            self.trimmed,
            self.broken,
        )
