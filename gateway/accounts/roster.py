"""Changes to the operators file, the same for the CLI and the console: add, role, skins,
disable, enable, password, sessions ended, one-time sign-in link, remove, token.

The file stays the one source of truth (both write it; every instance sharing it re-reads it at
its next request, `OperatorsFile.roster`). `edit` rewrites it whole and atomically (a temporary
file beside it, fsync'd, renamed over it, mode 0600) under a lock on its folder, so two writers
at once (two CLI runs, the CLI and a console, two instances) lose neither change. Each change is
checked here and refused with a `Refusal` that names the field and a code the console translates.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import msgspec
from msgspec.structs import replace

from gateway.accounts.operators import (
    NAME_PATTERN,
    SKIN_PATTERN,
    Account,
    OperatorsFileError,
    Role,
    RosterFile,
    Token,
    read,
    token_digest,
)

MIN_PASSWORD = 12
MAX_PASSWORD = 1024
LINK_S = 24 * 3600
"""A one-time sign-in link works this long."""
HEADER = (
    "# The gateway's operators and automation tokens (`python -m gateway operators --help`).\n"
    "# Rewritten whole by that command and by the console: comments here are not kept.\n"
)
T = TypeVar("T")


class Refusal(Exception):
    """A change the file will not take: which field, a code, and words for a person."""

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(message)
        self.field, self.code, self.message = field, code, message


def password_problem(name: str, password: str) -> Refusal | None:
    """What makes a password too weak (None: it will do)."""
    if len(password) < MIN_PASSWORD:
        return Refusal("password", "PASSWORD_TOO_SHORT", f"A password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        return Refusal("password", "PASSWORD_TOO_LONG", f"A password has at most {MAX_PASSWORD} characters")
    if name and name in password.lower():
        return Refusal("password", "PASSWORD_HAS_NAME", "A password may not contain the operator's name")
    if len(set(password)) < 5:
        return Refusal("password", "PASSWORD_TOO_SIMPLE", "A password needs at least 5 different characters")
    return None


def checked_name(name: str) -> str:
    if not re.match(NAME_PATTERN, name):
        raise Refusal("name", "NAME_INVALID", "A name is 1-64 of a-z 0-9 . _ -")
    return name


def _taken(roster: RosterFile, name: str) -> bool:
    return any(a.name == name for a in roster.operators) or any(t.name == name for t in roster.tokens)


def find(roster: RosterFile, name: str) -> Account:
    account = next((a for a in roster.operators if a.name == name), None)
    if account is None:
        raise Refusal("name", "UNKNOWN_OPERATOR", f"No operator {name}")
    return account


def _put(roster: RosterFile, account: Account) -> Account:
    roster.operators = [account if a.name == account.name else a for a in roster.operators]
    return account


def _admins_left(roster: RosterFile, without: str) -> int:
    return sum(1 for a in roster.operators if a.role == "admin" and not a.disabled and a.name != without)


def _keeps_an_admin(roster: RosterFile, account: Account, field: str) -> None:
    if account.role == "admin" and not account.disabled and _admins_left(roster, account.name) == 0:
        raise Refusal(field, "LAST_ADMIN", "This is the last admin who can sign in: make another admin first")


def skins_of(given: Sequence[str], known: Sequence[str] | None) -> tuple[str, ...]:
    """The skins as given (sorted, once each), each known when `known` is."""
    if any(not re.match(SKIN_PATTERN, skin) for skin in given):
        raise Refusal("skins", "SKIN_INVALID", "A skin id is 1-64 of a-z 0-9 _ -")
    unknown = sorted(set(given) - set(known)) if known is not None else []
    if unknown:
        raise Refusal("skins", "UNKNOWN_SKIN", f"No skin {', '.join(unknown)}")
    return tuple(sorted(set(given)))


def check_new(roster: RosterFile, name: str) -> None:
    """Refuses a name that is not valid or not free."""
    if _taken(roster, checked_name(name)):
        raise Refusal("name", "NAME_TAKEN", f"{name} already exists")


def add(roster: RosterFile, name: str, role: Role, skins: tuple[str, ...], password_hash: str | None) -> Account:
    """A new operator: with a password's hash (the CLI), or none until their sign-in link is used."""
    check_new(roster, name)
    account = Account(name, role, password_hash, skins)
    roster.operators.append(account)
    return account


def set_role(roster: RosterFile, name: str, role: Role) -> Account:
    account = find(roster, name)
    if role != "admin":
        _keeps_an_admin(roster, account, "role")
    return _put(roster, replace(account, role=role))


def set_skins(roster: RosterFile, name: str, skins: tuple[str, ...]) -> Account:
    return _put(roster, replace(find(roster, name), skins=skins))


def disable(roster: RosterFile, name: str, now: float) -> Account:
    """Disabled: no sign-in, and every session of theirs ends at its next request."""
    account = find(roster, name)
    _keeps_an_admin(roster, account, "disabled")
    return _put(roster, replace(account, disabled=True, sessions_after=now))


def enable(roster: RosterFile, name: str) -> Account:
    return _put(roster, replace(find(roster, name), disabled=False))


def end_sessions(roster: RosterFile, name: str, now: float) -> Account:
    return _put(roster, replace(find(roster, name), sessions_after=now))


def set_password(roster: RosterFile, name: str, password_hash: str, now: float) -> Account:
    """A new password: the sessions signed in with the old one end; a pending link stops working."""
    account = replace(find(roster, name), password=password_hash, sessions_after=now)
    return _put(roster, replace(account, link_sha256=None, link_expires=None))


def issue_link(roster: RosterFile, name: str, now: float) -> tuple[Account, str]:
    """A one-time sign-in link's token for `name` (only its SHA-256 is kept), working `LINK_S`."""
    token = secrets.token_urlsafe(32)
    account = replace(find(roster, name), link_sha256=token_digest(token), link_expires=now + LINK_S)
    return _put(roster, account), token


def use_link(roster: RosterFile, token: str, password_hash: str, now: float) -> Account:
    """The link's operator with their first password; the link works no more."""
    digest = token_digest(token)
    account = next((a for a in roster.operators if a.link_sha256 == digest), None)
    if account is None:
        raise Refusal("token", "LINK_INVALID", "This sign-in link was used already or never existed")
    if not account.link_ok(now):
        raise Refusal("token", "LINK_EXPIRED", "This sign-in link expired: ask an admin for a new one")
    return set_password(roster, account.name, password_hash, now)


def link_owner(roster: RosterFile, token: str) -> Account | None:
    digest = token_digest(token)
    return next((a for a in roster.operators if a.link_sha256 == digest), None)


def remove(roster: RosterFile, name: str) -> None:
    account = next((a for a in roster.operators if a.name == name), None)
    if account is not None:
        _keeps_an_admin(roster, account, "name")
    before = len(roster.operators) + len(roster.tokens)
    roster.operators = [a for a in roster.operators if a.name != name]
    roster.tokens = [t for t in roster.tokens if t.name != name]
    if len(roster.operators) + len(roster.tokens) == before:
        raise Refusal("name", "UNKNOWN_OPERATOR", f"No operator or token {name}")


def issue_token(roster: RosterFile, name: str, role: Role, rotate: bool, skins: tuple[str, ...] = ()) -> str:
    """A new bearer token for a client (only its SHA-256 is kept)."""
    checked_name(name)
    if any(a.name == name for a in roster.operators):
        raise Refusal("name", "NAME_TAKEN", f"{name} is an operator; a token needs a name of its own")
    if any(t.name == name for t in roster.tokens) and not rotate:
        raise Refusal("name", "NAME_TAKEN", f"{name} has a token; --rotate replaces it")
    token = secrets.token_urlsafe(32)
    roster.tokens = [t for t in roster.tokens if t.name != name] + [Token(name, role, token_digest(token), skins)]
    return token


def set_token_role(roster: RosterFile, name: str, role: Role) -> bool:
    """Whether `name` is a token (its role then changed)."""
    if not any(t.name == name for t in roster.tokens):
        return False
    roster.tokens = [replace(t, role=role) if t.name == name else t for t in roster.tokens]
    return True


# --- the file ---------------------------------------------------------------------------


def load(path: Path) -> RosterFile:
    """The file as it is (none yet: empty); a file that does not validate is refused."""
    if not path.exists():
        return RosterFile()
    try:
        return read(path).file
    except OperatorsFileError as exc:
        raise Refusal("file", "FILE_INVALID", f"{exc}; fix the file first") from None


def edit(path: Path, change: Callable[[RosterFile], T]) -> T:
    """`change` applied to the file under its lock and written back (not written when it refuses)."""
    with lock(path.parent):
        roster = load(path)
        done = change(roster)
        write(path, roster)
    return done


def render(roster: RosterFile) -> str:
    """The file as TOML (names, roles, hashes and digests: plain ASCII, quoted as JSON strings are;
    fields at their default are left out)."""
    parts = [HEADER]
    for table, entries in (("operators", roster.operators), ("tokens", roster.tokens)):
        for entry in entries:
            fields = "".join(f"{k} = {json.dumps(v)}\n" for k, v in _fields(entry).items())
            parts.append(f"\n[[{table}]]\n{fields}")
    return "".join(parts)


def _fields(entry: Account | Token) -> dict[str, object]:
    fields: dict[str, object] = msgspec.to_builtins(entry)  # those at their default left out
    return fields


def write(path: Path, roster: RosterFile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, render(roster).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a crash
    finally:
        os.close(folder)


@contextlib.contextmanager
def lock(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
