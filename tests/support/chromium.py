"""Debian's Chromium, as the browser tests and the benchmarks launch it: nothing downloads a
browser at run time, and these flags keep it quiet (no sandbox in a container, no GPU, no QUIC,
no background traffic that would count as the page's bytes)."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
