"""`python -m gateway operators ...`: add an operator, reset a password, change a role or the
skins they may change, disable and enable them, end their sessions, issue a one-time sign-in
link, remove, list, and issue automation tokens, in the operators file (`--file`, else
`OPERATORS_FILE`). The console's admins do the same through `gateway.console.operators`; both
go through `gateway.accounts.roster`, so they refuse and write alike.

Passwords are read from the terminal twice (`getpass`: never echoed, never an argument), or with
`--password-stdin` one line from standard input (provisioning from a pipe); with neither a
terminal nor that flag the command says so in one line and exits 2. Tokens and links are made
here and printed once (the file keeps their SHA-256). Every change is audited as the gateway
audits (`REDIS_URL`: the stream; else `AUDIT_FILE`) with `via` "cli" and the host's user.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from gateway.accounts import carry_over
from gateway.accounts import roster as edits
from gateway.accounts.audit import Action, AuditEntry
from gateway.accounts.operators import ROLES, Passwords, RosterFile
from gateway.accounts.roster import Refusal, render
from gateway.config.settings import Settings
from gateway.store.redis import connect

__all__ = ["main", "render"]

NO_TERMINAL = 2
"""The exit code without a terminal to ask a password at (and no `--password-stdin`)."""


class NoTerminal(Exception):
    """No terminal to read a password from, and no `--password-stdin`."""


Done = tuple[str, Action, dict[str, Any]]
"""What the command says, the audit's action, and the entry's fields (target, before, after)."""


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        parser.error(str(exc))
    path = args.file or settings.operators_file
    if path is None:
        parser.error("name the operators file: --file PATH, or OPERATORS_FILE")
    try:
        if args.command == "list":
            _list(edits.load(path))
            return 0
        password = (
            _password(path, args) if args.command == "passwd" or (args.command == "add" and not args.link) else None
        )
        said, action, fields = edits.edit(path, lambda roster: COMMANDS[args.command](roster, args, password))
    except NoTerminal:
        print(
            "operators: no terminal to ask the password at; pipe it in with --password-stdin (or use --link)",
            file=sys.stderr,
        )
        return NO_TERMINAL
    except Refusal as exc:
        print(f"operators: {exc.message}", file=sys.stderr)
        return 1
    asyncio.run(_audit(settings, action, fields))
    print(f"{said} ({path}; running gateways take it up at their next request)")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gateway operators", description="Manage the operators file of the admin listener."
    )
    parser.add_argument("--file", type=Path, help="the operators file (default: $OPERATORS_FILE)")
    commands = parser.add_subparsers(dest="command", required=True)
    add = _add_command(commands, "add", "add an operator (asks for their password, or --link)")
    add.add_argument("--role", choices=ROLES, required=True)
    add.add_argument("--skins", default="", help="comma-separated skins they may change (default: every skin)")
    add.add_argument("--link", action="store_true", help="no password: print a one-time sign-in link (24 h)")
    _add_command(commands, "passwd", "set an operator's new password (ends their console sessions)")
    role = _add_command(commands, "role", "change an operator's or a token's role")
    role.add_argument("--role", choices=ROLES, required=True)
    skins = _add_command(commands, "skins", "the skins an operator may change (none named: every skin)")
    skins.add_argument("skins", nargs="*")
    _add_command(commands, "disable", "no more sign-ins; their console sessions end at once")
    _add_command(commands, "enable", "may sign in again")
    _add_command(commands, "end-sessions", "end the operator's console sessions")
    _add_command(commands, "link", "print a one-time sign-in link (24 h) that sets their password")
    _add_command(commands, "remove", "remove an operator or a token")
    commands.add_parser("list", help="names, kinds, roles and skins (never a hash)")
    token = _add_command(commands, "token", "issue a bearer token for a client (printed once)")
    token.add_argument("--role", choices=ROLES, required=True)
    token.add_argument("--rotate", action="store_true", help="replace the token of that name")
    token.add_argument("--skins", default="", help="comma-separated skins it may change (default: every skin)")
    for name, sub in commands.choices.items():  # `--file` after the command reads as naturally
        sub.add_argument("--file", type=Path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        if name in ("add", "passwd"):
            sub.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    return parser


def _add_command(commands: Any, name: str, help: str) -> argparse.ArgumentParser:
    sub: argparse.ArgumentParser = commands.add_parser(name, help=help)
    sub.add_argument("name")
    return sub


def has_terminal() -> bool:
    """Whether `getpass` has a terminal to ask at (its own /dev/tty, else standard input)."""
    try:
        with open("/dev/tty"):
            return True
    except OSError:
        return sys.stdin.isatty()


def _password(path: Path, args: argparse.Namespace) -> str:
    """The new password's hash (the name is checked first: nobody types a password in vain)."""
    if args.command == "add":
        edits.check_new(edits.load(path), args.name)
    else:
        edits.find(edits.load(path), args.name)
    if args.password_stdin:
        return _hashed(args.name, sys.stdin.readline().removesuffix("\n").removesuffix("\r"))
    if not has_terminal():
        raise NoTerminal
    try:
        first = getpass.getpass(f"Password for {args.name}: ")
        hashed = _hashed(args.name, first)  # a weak one is refused before it is asked again
        if getpass.getpass("The same password again: ") != first:
            raise Refusal("password", "PASSWORDS_DIFFER", "the two passwords differ; nothing changed")
    except EOFError:
        raise NoTerminal from None
    return hashed


def _hashed(name: str, password: str) -> str:
    problem = edits.password_problem(name, password)
    if problem is not None:
        raise problem
    return Passwords().hash(password)  # the parameters the gateway checks an unknown name at


def _skins_given(args: argparse.Namespace) -> tuple[str, ...]:
    return edits.skins_of([s.strip() for s in args.skins.split(",") if s.strip()], None)


def _add(roster: RosterFile, args: argparse.Namespace, password: str | None) -> Done:
    skins = _skins_given(args)
    account = edits.add(roster, args.name, args.role, skins, password)
    after = {"role": account.role, "skins": list(skins)}
    if args.link:
        _print_link(*edits.issue_link(roster, args.name, time.time()))
    return f"added {args.name} ({args.role})", "operator-add", {"target": args.name, "after": after}


def _print_link(account: Any, token: str) -> None:
    print(f"A sign-in link for {account.name} (works once, for 24 hours; shown once):\n/admin/welcome#{token}")


def _passwd(roster: RosterFile, args: argparse.Namespace, password: str | None) -> Done:
    assert password is not None
    edits.set_password(roster, args.name, password, time.time())
    return f"new password for {args.name}; their console sessions end", "operator-password", {"target": args.name}


def _role(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    if not edits.set_token_role(roster, args.name, args.role):
        before = edits.find(roster, args.name).role
        edits.set_role(roster, args.name, args.role)
        return f"{args.name} is now {args.role}", "operator-role", _change(args.name, before, args.role)
    return f"{args.name} is now {args.role}", "operator-role", {"target": args.name, "after": args.role}


def _change(name: str, before: Any, after: Any) -> dict[str, Any]:
    return {"target": name, "before": before, "after": after}


def _skins(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    skins = edits.skins_of(args.skins, None)
    before = list(edits.find(roster, args.name).skins)
    edits.set_skins(roster, args.name, skins)
    said = f"{args.name} may change {', '.join(skins) if skins else 'every skin'}"
    return said, "operator-skins", _change(args.name, before, list(skins))


def _disable(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    edits.disable(roster, args.name, time.time())
    return f"disabled {args.name}; their console sessions end", "operator-disable", {"target": args.name}


def _enable(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    edits.enable(roster, args.name)
    return f"enabled {args.name}", "operator-enable", {"target": args.name}


def _end_sessions(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    edits.end_sessions(roster, args.name, time.time())
    return f"ended the console sessions of {args.name}", "operator-sessions-ended", {"target": args.name}


def _link(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    _print_link(*edits.issue_link(roster, args.name, time.time()))
    return f"issued a sign-in link for {args.name}", "operator-link", {"target": args.name}


def _remove(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    edits.remove(roster, args.name)
    return f"removed {args.name}", "operator-remove", {"target": args.name}


def _token(roster: RosterFile, args: argparse.Namespace, _: str | None) -> Done:
    token = edits.issue_token(roster, args.name, args.role, args.rotate, _skins_given(args))
    print(f"The token for {args.name} (shown once; the file keeps only its SHA-256):\n{token}")
    said = f"{'rotated' if args.rotate else 'issued'} the token of {args.name} ({args.role})"
    return said, "operator-token", {"target": args.name, "after": args.role}


COMMANDS: dict[str, Callable[[RosterFile, argparse.Namespace, str | None], Done]] = {
    "add": _add,
    "passwd": _passwd,
    "role": _role,
    "skins": _skins,
    "disable": _disable,
    "enable": _enable,
    "end-sessions": _end_sessions,
    "link": _link,
    "remove": _remove,
    "token": _token,
}


def _list(roster: RosterFile) -> None:
    rows = [
        (a.name, "operator", a.role, ",".join(a.skins) or "*", " disabled" if a.disabled else "")
        for a in roster.operators
    ] + [(t.name, "token", t.role, ",".join(t.skins) or "*", "") for t in roster.tokens]
    if not rows:
        print("nobody yet: `python -m gateway operators add NAME --role ROLE`")
    for name, kind, role, skins, state in rows:
        print(f"{name:<24} {kind:<9} {role:<9} {skins}{state}")


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "(unknown)"


async def _audit(settings: Settings, action: Action, fields: dict[str, Any]) -> None:
    """The change in the trail the gateway keeps (its Redis stream, else its file)."""
    pending: list[Coroutine[Any, Any, Any]] = []
    redis = connect(settings.shared_redis) if settings.shared_redis is not None else None
    trail = carry_over.trail(redis, pending.append, settings.audit_file)  # the gateway's own choice
    try:
        await trail.record(AuditEntry(action, _user(), "cli", None, "ok", **fields))
        if pending:  # Redis refused it: tried again for a few seconds, then the log line stays
            await asyncio.wait_for(asyncio.gather(*pending), timeout=5)
    except TimeoutError:
        print("operators: the audit trail's store did not answer; the change is made", file=sys.stderr)
    finally:
        if redis is not None:
            await redis.aclose()
