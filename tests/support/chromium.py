"""Debian's Chromium, as the browser tests and the benchmarks launch it: nothing downloads a
browser at run time, and these flags keep it quiet (no sandbox in a container, no GPU, no QUIC,
no background traffic that would count as the page's bytes).

The benchmarks (Lighthouse, the bytes of a visit) run the full browser, as a player's is. The
browser tests run Debian's `chromium-headless-shell` when it is installed (`.ci/run` installs it):
the same Blink of the same version, without the full browser's window layers, the build
Playwright itself runs headless. Side by side, one layout-sweep test (390 px, es) twice with each
on this 2-core machine: Chromium's processes used 12.6-13.4 CPU-seconds with the full browser,
8.9-9.6 with the shell, and the test took 22-26 s against 19-20 s."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def browser_binary() -> Path:
    """The browser the tests drive: the headless shell, else the full browser."""
    return HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
