"""`python -m contracts export [--check]`."""

from __future__ import annotations

import argparse
import sys

from contracts import export


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m contracts")
    commands = parser.add_subparsers(dest="command", required=True)
    export_cmd = commands.add_parser("export", help="write JSON Schema and TypeScript types for the SPA")
    export_cmd.add_argument("--check", action="store_true", help="fail if the committed files are stale")
    args = parser.parse_args(argv)
    return export.check_or_write(args.check, export.stale, export.write, "generated contract files")


if __name__ == "__main__":
    sys.exit(main())
