"""The operators file (`OPERATORS_FILE`): who may sign in to the console, with an argon2id
hash of their password, and which automation clients hold bearer tokens (kept as the SHA-256
of the token), each with a role.

Each operator may be limited to some skins, disabled, have their sessions ended
(`sessions_after`) or a pending one-time sign-in link; the console and the CLI change the file
alike (`gateway.accounts.roster`). Re-read live: its stat is compared on every look at the roster
(so a change another instance wrote is in force at the next request), polled every `SKINS_POLL_S`,
and read on SIGHUP; a file that does not parse or validate keeps the last good roster, is logged
(`operators.rejected`) and reported (`OperatorsFile.error`). No error message quotes a value from
the file.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import structlog
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

log = structlog.get_logger("gateway.console")

Role = Literal["viewer", "operator", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "operator", "admin")
"""Each role may do what the ones before it may."""
NAME_PATTERN = r"^[a-z0-9._-]{1,64}$"
Name = Annotated[str, msgspec.Meta(pattern=NAME_PATTERN)]


SKIN_PATTERN = r"^[a-z0-9_-]{1,64}$"
SkinId = Annotated[str, msgspec.Meta(pattern=SKIN_PATTERN)]


class Account(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """An operator who signs in to the console."""

    name: Name
    role: Role
    password: Annotated[str, msgspec.Meta(pattern=r"^\$argon2id\$")] | None = None
    """The argon2id hash (PHC string) of their password; None until a sign-in link is used."""
    skins: tuple[SkinId, ...] = ()
    """The skins they may change; empty: every skin."""
    disabled: bool = False
    """A disabled operator cannot sign in, and their sessions end at their next request."""
    sessions_after: float = 0.0
    """Sessions signed in before this time (epoch seconds) are ended: "end their sessions"."""
    link_sha256: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The SHA-256 of a one-time sign-in link's token, until it is used."""
    link_expires: float | None = None
    """When that link stops working (epoch seconds)."""

    def link_ok(self, now: float) -> bool:
        return self.link_sha256 is not None and self.link_expires is not None and now < self.link_expires


class Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """An automation client's bearer token."""

    name: Name
    role: Role
    token_sha256: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
    skins: tuple[SkinId, ...] = ()
    """The skins it may change; empty: every skin."""


class RosterFile(msgspec.Struct, forbid_unknown_fields=True):
    """The file as written: `[[operators]]` and `[[tokens]]` tables."""

    operators: list[Account] = []
    tokens: list[Token] = []


class OperatorsFileError(ValueError):
    """The file cannot be read, is not TOML, or does not validate; the message names where."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Roster:
    """A validated operators file, indexed for the guard."""

    file: RosterFile = field(default_factory=RosterFile)
    accounts: dict[str, Account] = field(default_factory=dict)
    tokens: dict[str, Token] = field(default_factory=dict)
    """By `token_sha256`."""

    @classmethod
    def of(cls, file: RosterFile, source: str) -> Roster:
        names = [a.name for a in file.operators] + [t.name for t in file.tokens]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:  # the audit names one of them: it must say which
            raise OperatorsFileError(f"{source}: {', '.join(twice)} named more than once (operators and tokens)")
        digests = [t.token_sha256 for t in file.tokens]
        if len(set(digests)) != len(digests):
            raise OperatorsFileError(f"{source}: two tokens have the same token_sha256")
        return cls(file, {a.name: a for a in file.operators}, {t.token_sha256: t for t in file.tokens})


def parse(raw: bytes, source: str) -> Roster:
    try:
        data = tomllib.loads(raw.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise OperatorsFileError(f"{source}: not valid TOML ({exc})") from None
    try:
        file = msgspec.convert(data, RosterFile)
    except msgspec.ValidationError as exc:  # names the field and the rule, never the value
        raise OperatorsFileError(f"{source}: {exc}") from None
    return Roster.of(file, source)


def read(path: Path) -> Roster:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise OperatorsFileError(f"{path}: cannot read ({exc.strerror})") from None
    return parse(raw, str(path))


class OperatorsFile:
    """The roster in force: the last good read of the file (none: nobody signs in)."""

    def __init__(self, path: Path | None, on_rejected: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.on_rejected = on_rejected
        self.error: str | None = None
        self.error_at: float | None = None
        self._stamp = _stamp(path) if path is not None else None
        # A bad file at start stops the start (the message names the field).
        self._roster = read(path) if path is not None else Roster()

    @property
    def roster(self) -> Roster:
        """The roster in force, the file read again first if it changed (a stat, ~2 us): a change
        written by the console or the CLI on another instance is in force at the next request."""
        if self.path is not None and _stamp(self.path) != self._stamp:
            self.reload("file changed")
        return self._roster

    def account(self, name: str) -> Account | None:
        """The operator who may sign in by that name (None: nobody, or disabled)."""
        account = self.roster.accounts.get(name)
        return account if account is not None and not account.disabled else None

    def token(self, given: str) -> Token | None:
        return self.roster.tokens.get(token_digest(given))

    def reload(self, reason: str) -> bool:
        """Reads the file again: whether the new roster is in force."""
        if self.path is None:
            return True
        self._stamp = _stamp(self.path)
        try:
            roster = read(self.path)
        except OperatorsFileError as exc:
            self.error, self.error_at = str(exc), time.time()
            log.error("operators.rejected", reason=reason, error=self.error)
            if self.on_rejected is not None:
                self.on_rejected(self.error)
            return False
        changed = roster != self._roster
        self._roster, self.error, self.error_at = roster, None, None
        if changed:
            log.info("operators.applied", reason=reason, operators=len(roster.accounts), tokens=len(roster.tokens))
        return True

    async def watch(self, every_s: float) -> None:
        """Polls the file's stat, as the skins file is (it follows a ConfigMap's symlink swap)."""
        if self.path is None:
            return
        while True:
            await asyncio.sleep(every_s)
            if _stamp(self.path) != self._stamp:
                self.reload("file changed")

    def describe(self) -> dict[str, object]:
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.error_at)) if self.error_at else None
        return {"error": self.error, "errorAt": at}


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


class Passwords:
    """argon2id with argon2-cffi's defaults (RFC 9106's second recommendation: 64 MiB, 3 passes,
    4 lanes; ~0.1-0.2 s of a core here). Checks run in a worker thread, `at_once` at a time, so
    a burst of sign-ins neither stalls the event loop nor takes all memory."""

    def __init__(self, hasher: PasswordHasher | None = None, at_once: int = 2) -> None:
        self.hasher = hasher or PasswordHasher()
        # An unknown name is checked against this, at the same cost as a real hash: both answer alike.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self._slots = asyncio.Semaphore(at_once)

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` matches `stored` (None: no such operator, always False)."""
        async with self._slots:
            matches = await asyncio.to_thread(self._matches, stored or self._dummy, password)
        return matches and stored is not None

    def _matches(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
