"""`python -m gateway check-upstream URL --skin ID --upstream capi`: whether a base URL speaks the
platform, before a skin is pointed at it (`gateway.config.conformity`).

One line per documented call (ok or FAILED, its name, its path, its status or why), then the total.
Exit status 0 when every call keeps its contract, 1 when one does not, 2 for a usage error, so a
pipeline can gate a change on it. It trusts what the gateway's calls trust (`UPSTREAM_CA_FILE`);
`--json` prints the result as the console's preview answers it.
"""

from __future__ import annotations

import argparse
import asyncio

import msgspec

from contracts.catalogue import UPSTREAMS
from gateway.config import skins
from gateway.config.conformity import Conformity, conformity
from gateway.config.settings import Settings
from gateway.config.trust import upstream_trust
from gateway.console.changes import url_errors


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if errors := url_errors(args.url):
        parser.error(f"URL: {errors[0].message}")
    if args.timeout <= 0:
        parser.error("--timeout: a number of seconds above 0")
    settings = _settings(parser)
    site_id, said = _site_id(parser, settings, args.skin)
    try:
        trust = upstream_trust(settings.upstream_ca_file)  # what the gateway's calls would trust
    except ValueError as exc:
        parser.error(str(exc))
    result = asyncio.run(conformity(args.url, args.upstream, site_id, within_s=args.timeout, context=trust))
    if args.json:
        print(msgspec.json.encode(result).decode())
    else:
        print(report(result, site_id, said))
    return 0 if result.ok else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gateway check-upstream",
        description="Check that a base URL speaks the platform: its documented calls that need no player, "
        "each answer held to the contract the product reads.",
    )
    parser.add_argument("url", help="the base URL to check (http(s)://host[:port][/path])")
    parser.add_argument("--skin", required=True, help="the skin whose site id the calls send (from SKINS_FILE)")
    parser.add_argument("--upstream", required=True, choices=UPSTREAMS, help="which of the skin's upstreams")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds each call may take (default 5)")
    parser.add_argument("--json", action="store_true", help="the result as JSON, for pipelines")
    return parser


def _settings(parser: argparse.ArgumentParser) -> Settings:
    try:
        return Settings.from_env()
    except ValueError as exc:
        parser.error(str(exc))


def _site_id(parser: argparse.ArgumentParser, settings: Settings, skin_id: str) -> tuple[str, str]:
    """The skin's site id from the skins file (or the built-in skins), else the id as given; and
    where it came from, for the report."""
    try:
        path = settings.skins_file
        known = skins.load(path).all if path is not None else skins.builtin("http://127.0.0.1").all
    except (ValueError, skins.SkinsFileError) as exc:
        parser.error(str(exc))
    source = str(path) if path is not None else "the built-in skins"
    found = next((skin for skin in known if skin.id == skin_id), None)
    if found is None:
        return skin_id, f"not a skin of {source}: its id sent as the site id"
    return found.site_id, f"skin {skin_id} of {source}"


def report(result: Conformity, site_id: str, said: str) -> str:
    lines = [f"{result.upstream} at {result.url}, site id {site_id} ({said})"]
    width = max((len(call.name) for call in result.calls), default=0)
    for call in result.calls:
        mark = "ok    " if call.ok else "FAILED"
        outcome = f"HTTP {call.status}" if call.ok else call.why
        lines.append(f"  {mark}  {call.name:<{width}}  {call.path}  {outcome}")
    lines.append(result.summary)
    return "\n".join(lines)
