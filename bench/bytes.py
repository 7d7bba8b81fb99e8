"""Bytes per page in Chromium at 390 px, first visit and a repeat visit (issue 30).

Starts the product (`python -m gateway --with-sandbox`, built SPA, as `make run` serves it) on free
ports and opens each page in Debian's Chromium with a phone's viewport (390 x 844). A first visit
is a fresh browser profile (nothing cached; logged in: only the session's cookies); the repeat
visit is a new page in the same profile, its HTTP cache and cookies kept, as a player coming back.
Logged out: /home, /games/slots, /livedealer, /promotions; logged in as the sandbox's demo1:
/mybalance, /deposit.

Counted through the DevTools protocol, per request that crossed the wire: `Network.loadingFinished`'s
`encodedDataLength` (the answer's head and body as received, compressed or not); answers the
browser took from its own cache cost nothing and are counted apart; answers 304 are counted (the
status line as received, `Network.responseReceivedExtraInfo`: the page itself sees the stored 200). A page
is measured until the network has been idle for half a second, then 2 s more. Also listed: JSON
answers over 1 kB that arrived uncompressed, and the page's largest answers.

`python bench/bytes.py --label after` writes bench/results/bytes.json (each label's figures kept
beside the others) and prints a table of every label it holds; `--checkout DIR` measures another
checkout of the project (its own spa/dist) with this one's Python, e.g. main's code for "before".
Run by `make bench`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Playwright, sync_playwright

from tests.support.browser import Browser
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.stack import start_stack
from tests.support.wire import visit

RESULTS = Path(__file__).resolve().parent / "results" / "bytes.json"
VISITOR_PAGES = ("/home", "/games/slots", "/livedealer", "/promotions")
PLAYER_PAGES = ("/mybalance", "/deposit")
VIEWPORT = {"width": 390, "height": 844}


def measure_pages(
    playwright: Playwright, base: str, pages: tuple[str, ...], cookies: list[dict[str, Any]], workdir: Path
) -> dict[str, Any]:
    """Each page: a first visit in a fresh profile, then a repeat visit in the same one."""
    found: dict[str, Any] = {}
    for path in pages:
        profile = workdir / f"profile{path.replace('/', '-')}"
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            args=list(CHROMIUM_ARGS),
            viewport=VIEWPORT,
            locale="es-AR",
            is_mobile=True,
            has_touch=True,
        )
        try:
            if cookies:
                context.add_cookies(cookies)  # type: ignore[arg-type]
            first = visit(context, base + path).figures()
            repeat = visit(context, base + path).figures()
        finally:
            context.close()
        found[path] = {"first": first, "repeat": repeat}
        print(row(path, found[path]), flush=True)
    return found


def row(path: str, figures: dict[str, Any]) -> str:
    first, repeat = figures["first"], figures["repeat"]
    return (
        f"{path:<14} {first['bytes'] / 1000:>8.1f} {first['requests']:>5} {repeat['bytes'] / 1000:>8.1f} "
        f"{repeat['requests']:>5} {repeat['not_modified']:>5} {repeat['from_browser_cache']:>6}"
    )


HEAD = f"{'page':<14} {'first kB':>8} {'reqs':>5} {'again kB':>8} {'reqs':>5} {'304':>5} {'cache':>6}"


def measure(checkout: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bytes-") as tmp:
        workdir = Path(tmp)
        stack = start_stack(workdir, env={"SPA_DIST": str(checkout / "spa" / "dist")}, root=checkout)
        try:
            player = Browser(stack.url)
            player.login()
            jar = [{"name": c.name, "value": c.value or "", "url": stack.url} for c in player.http.cookies.jar]
            print(HEAD, flush=True)
            with sync_playwright() as playwright:
                pages = measure_pages(playwright, stack.url, VISITOR_PAGES, [], workdir)
                pages |= measure_pages(playwright, stack.url, PLAYER_PAGES, jar, workdir)
        finally:
            stack.stop()
    return pages


def commit_of(checkout: Path) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    return done.stdout.strip()[:100]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="latest", help="the name the figures are kept under")
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    if not (checkout / "spa" / "dist" / "index.html").is_file():
        print(f"{checkout}/spa/dist is not built (make spa)", file=sys.stderr)
        return 1
    pages = measure(checkout)
    stored = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"runs": {}}
    stored["runs"][args.label] = {
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit_of(checkout),
        "viewport": VIEWPORT,
        "pages": pages,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(stored, indent=2) + "\n")
    for label, run in stored["runs"].items():
        print(f"\n{label} ({run['measured']}, {run['commit']})\n{HEAD}")
        print("\n".join(row(path, figures) for path, figures in run["pages"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
