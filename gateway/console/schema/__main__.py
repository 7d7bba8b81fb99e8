"""`python -m gateway.console.schema [--check]`: write (or check) the console's generated API types."""

from __future__ import annotations

import argparse
import sys

from contracts import export
from gateway.console import schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway.console.schema")
    parser.add_argument("--check", action="store_true", help="fail if the committed file is stale")
    args = parser.parse_args(argv)
    return export.check_or_write(args.check, schema.stale, schema.write, "the console's generated API types")


if __name__ == "__main__":
    sys.exit(main())
