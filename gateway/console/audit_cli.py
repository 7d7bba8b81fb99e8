"""`python -m gateway audit verify`: the trail's chain checked from the host, as the console's
`/admin/api/audit/verify` checks it (the Redis stream with `REDIS_URL`, else `AUDIT_FILE`, or
`--file PATH`). One line; exit 0 when every kept entry links to the one before, 1 when a link is
broken (where and how), 2 when the trail cannot be read."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from gateway.accounts.audit import StreamTrail, Trail
from gateway.accounts.chain import ChainCheck
from gateway.accounts.trail_file import FileTrail
from gateway.config.settings import Settings
from gateway.store import StoreUnavailable
from gateway.store.redis import connect


def said(verdict: ChainCheck) -> str:
    """The verdict in one line, as an operator reads it."""
    broken = verdict.broken
    if broken is None:
        if verdict.last is None:
            return "trail verified: no entry yet"
        trimmed = (
            " (older entries trimmed by the bound: the oldest kept one anchors the chain)" if verdict.trimmed else ""
        )
        return f"trail verified up to {verdict.last} ({verdict.lastAt}): {verdict.checked} entries{trimmed}"
    where = ", ".join(part for part in (broken.at, f"line {broken.line}" if broken.line else None) if part)
    return f"trail altered at {where or 'the start'}: {broken.problem}: {broken.message}"


async def _verify(settings: Settings, file: Path | None) -> ChainCheck:
    if file is not None or settings.shared_redis is None:
        return await FileTrail(file or settings.audit_file).verify()
    redis = connect(settings.shared_redis)
    try:
        trail: Trail = StreamTrail(redis, lambda chore: None)
        return await trail.verify()
    finally:
        await redis.aclose()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway audit", description="Check the audit trail's hash chain.")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="report the first broken link, if any")
    verify.add_argument(
        "--file", type=Path, help="a trail file to check (default: Redis with REDIS_URL, else AUDIT_FILE)"
    )
    args = parser.parse_args(argv)
    try:
        verdict = asyncio.run(_verify(Settings.from_env(), args.file))
    except (ValueError, StoreUnavailable) as exc:
        print(f"gateway audit: {exc}", file=sys.stderr)
        return 2
    print(said(verdict))
    return 0 if verdict.intact else 1
