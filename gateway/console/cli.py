"""`python -m gateway operators ...`: add an operator, reset a password, change a role, remove,
list, and issue automation tokens, in the operators file (`--file`, else `OPERATORS_FILE`).

Passwords are read from the terminal twice (`getpass`: never echoed, never an argument);
tokens are made here and printed once (the file keeps their SHA-256). The file is rewritten
whole and atomically (a temporary file beside it, fsync'd, renamed over it, mode 0600) under a
lock on its folder, so two runs at once do not lose either change. Running gateways re-read it
within `SKINS_POLL_S`.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import getpass
import json
import os
import re
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

from msgspec.structs import replace

from gateway.accounts.operators import (
    NAME_PATTERN,
    ROLES,
    Account,
    OperatorsFileError,
    Passwords,
    RosterFile,
    Token,
    read,
    token_digest,
)
from gateway.config.settings import Settings

MIN_PASSWORD = 12
MAX_PASSWORD = 1024
HEADER = (
    "# The gateway's operators and automation tokens (`python -m gateway operators --help`).\n"
    "# Rewritten whole by that command: comments here are not kept.\n"
)


class Refusal(Exception):
    """What the command will not do, in words for the operator at the terminal."""


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        path = args.file or Settings.from_env().operators_file
    except ValueError as exc:
        parser.error(str(exc))
    if path is None:
        parser.error("name the operators file: --file PATH, or OPERATORS_FILE")
    try:
        if args.command == "list":
            _list(_load(path))
            return 0
        with _locked(path.parent):
            roster = _load(path)
            said = COMMANDS[args.command](roster, args)
            _write(path, roster)
    except Refusal as exc:
        print(f"operators: {exc}", file=sys.stderr)
        return 1
    print(f"{said} ({path}; running gateways re-read it within SKINS_POLL_S)")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gateway operators", description="Manage the operators file of the admin listener."
    )
    parser.add_argument("--file", type=Path, help="the operators file (default: $OPERATORS_FILE)")
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("add", help="add an operator (asks for their password)")
    add.add_argument("name")
    add.add_argument("--role", choices=ROLES, required=True)
    commands.add_parser("passwd", help="set an operator's new password (ends their console sessions)").add_argument(
        "name"
    )
    role = commands.add_parser("role", help="change an operator's or a token's role")
    role.add_argument("name")
    role.add_argument("--role", choices=ROLES, required=True)
    commands.add_parser("remove", help="remove an operator or a token").add_argument("name")
    commands.add_parser("list", help="names, kinds and roles (never a hash)")
    token = commands.add_parser("token", help="issue a bearer token for a client (printed once)")
    token.add_argument("name")
    token.add_argument("--role", choices=ROLES, required=True)
    token.add_argument("--rotate", action="store_true", help="replace the token of that name")
    for sub in commands.choices.values():  # `--file` after the command reads as naturally
        sub.add_argument("--file", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _load(path: Path) -> RosterFile:
    if not path.exists():
        return RosterFile()
    try:
        return read(path).file
    except OperatorsFileError as exc:
        raise Refusal(f"{exc}; fix the file first") from None


def _named(name: str) -> str:
    if not re.match(NAME_PATTERN, name):
        raise Refusal(f"a name is 1-64 of a-z 0-9 . _ - (not {name!r})")
    return name


def _taken(roster: RosterFile, name: str) -> bool:
    return any(a.name == name for a in roster.operators) or any(t.name == name for t in roster.tokens)


def _password(name: str) -> str:
    first = getpass.getpass(f"Password for {name}: ")
    if not MIN_PASSWORD <= len(first) <= MAX_PASSWORD:
        raise Refusal(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if getpass.getpass("The same password again: ") != first:
        raise Refusal("the two passwords differ; nothing changed")
    return first


def _hash(password: str) -> str:
    return Passwords().hash(password)  # the parameters the gateway checks an unknown name at


def _add(roster: RosterFile, args: argparse.Namespace) -> str:
    name = _named(args.name)
    if _taken(roster, name):
        raise Refusal(f"{name} exists (a new password: `passwd {name}`)")
    roster.operators.append(Account(name, args.role, _hash(_password(name))))
    return f"added {name} ({args.role})"


def _passwd(roster: RosterFile, args: argparse.Namespace) -> str:
    account = next((a for a in roster.operators if a.name == args.name), None)
    if account is None:
        raise Refusal(f"no operator {args.name}")
    roster.operators[roster.operators.index(account)] = Account(
        account.name, account.role, _hash(_password(account.name))
    )
    return f"new password for {account.name}; their console sessions end"


def _role(roster: RosterFile, args: argparse.Namespace) -> str:
    if any(a.name == args.name for a in roster.operators):
        roster.operators = [replace(a, role=args.role) if a.name == args.name else a for a in roster.operators]
    elif any(t.name == args.name for t in roster.tokens):
        roster.tokens = [replace(t, role=args.role) if t.name == args.name else t for t in roster.tokens]
    else:
        raise Refusal(f"no operator or token {args.name}")
    return f"{args.name} is now {args.role}"


def _fields(entry: Account | Token) -> dict[str, str]:
    return {field: getattr(entry, field) for field in entry.__struct_fields__}


def _remove(roster: RosterFile, args: argparse.Namespace) -> str:
    before = len(roster.operators) + len(roster.tokens)
    roster.operators = [a for a in roster.operators if a.name != args.name]
    roster.tokens = [t for t in roster.tokens if t.name != args.name]
    if len(roster.operators) + len(roster.tokens) == before:
        raise Refusal(f"no operator or token {args.name}")
    return f"removed {args.name}"


def _token(roster: RosterFile, args: argparse.Namespace) -> str:
    name = _named(args.name)
    if any(a.name == name for a in roster.operators):
        raise Refusal(f"{name} is an operator; a token needs a name of its own")
    if any(t.name == name for t in roster.tokens) and not args.rotate:
        raise Refusal(f"{name} has a token; --rotate replaces it")
    token = secrets.token_urlsafe(32)
    roster.tokens = [t for t in roster.tokens if t.name != name] + [Token(name, args.role, token_digest(token))]
    print(f"The token for {name} (shown once; the file keeps only its SHA-256):\n{token}")
    return f"{'rotated' if args.rotate else 'issued'} the token of {name} ({args.role})"


COMMANDS = {"add": _add, "passwd": _passwd, "role": _role, "remove": _remove, "token": _token}


def _list(roster: RosterFile) -> None:
    rows = [(a.name, "operator", a.role) for a in roster.operators] + [(t.name, "token", t.role) for t in roster.tokens]
    if not rows:
        print("nobody yet: `python -m gateway operators add NAME --role ROLE`")
    for name, kind, role in rows:
        print(f"{name:<24} {kind:<9} {role}")


def render(roster: RosterFile) -> str:
    """The file as TOML (names, roles, hashes and digests: plain ASCII, quoted as JSON strings are)."""
    parts = [HEADER]
    for table, entries in (("operators", roster.operators), ("tokens", roster.tokens)):
        for entry in entries:
            fields = "".join(f"{field} = {json.dumps(value)}\n" for field, value in _fields(entry).items())
            parts.append(f"\n[[{table}]]\n{fields}")
    return "".join(parts)


def _write(path: Path, roster: RosterFile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
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
def _locked(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
