"""Lighthouse on every page of the player site (mobile profile, simulated slow 4G and 4x CPU), as
`../shared/TOOLCHAIN.md` runs it offline against Debian's Chromium.

Starts the product (`python -m gateway --with-sandbox`, built SPA) on free ports and opens every
route of the SPA's route table (`spa/src/app/router.tsx`, read as the layout sweep reads it; a
route with a parameter by its first sample URL): public pages logged out, each run in a fresh
Chromium, then guarded ones logged in, in one Chromium whose cookie jar holds a sandbox player's
session. A report whose final URL is not the page asked for (a guarded page sent to /home) fails
the run. Pages run one after another, ROUNDS times each; the median of each score and metric goes
to bench/results/lighthouse.json and a table to stdout. Run by `make lighthouse`;
`--pages /deposit,/mybalance` runs only those and replaces their entries in the results,
`--reports DIR` keeps every report.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.layout import route_table
from tests.support.browser import Browser as Player
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.stack import free_port, start_stack

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
RESULTS = HERE / "results"
ROUNDS = 3
TARGET = 0.9
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
)
CHROME_FLAGS = " ".join(("--headless=new", *CHROMIUM_ARGS))
ROUTER = Path(__file__).resolve().parents[1] / "spa" / "src" / "app" / "router.tsx"
# Routes that lead elsewhere on purpose: the path their report must end on.
LANDS_ON = {"/": "/home", "/lobby/lobbyflash": "/lobby/lobbyflash.html", "/lobby/tableflash": "/lobby/tableflash.html"}


@dataclass(frozen=True)
class Page:
    path: str
    guarded: bool


def pages() -> list[Page]:
    """One URL per route of the route table, in its order, and the top menu's category routes
    (`TOP_MENU_CATEGORIES.map(...)`, which the table's reader does not see)."""
    seen: dict[str, Page] = {}
    for route in route_table():
        seen.setdefault(route.pattern, Page(route.url, route.guarded))
    categories = re.search(r"TOP_MENU_CATEGORIES = \[([^\]]*)\]", ROUTER.read_text())
    assert categories, f"no TOP_MENU_CATEGORIES in {ROUTER}"
    top_menu = [Page("/" + name, False) for name in re.findall(r'"([^"]+)"', categories.group(1))]
    return [*seen.values(), *top_menu]


@contextmanager
def signed_in_chrome(url: str, profile: Path) -> Iterator[int]:
    """A Chromium whose cookie jar holds a sandbox player's session (and XSRF token), so that the
    SPA's own calls carry both; the debugging port to run Lighthouse on. Lighthouse clears an
    origin's caches and storage between runs but not its cookies."""
    player = Player(url)
    player.login()
    port = free_port()
    chrome = subprocess.Popen(
        [
            str(CHROMIUM),
            *CHROME_FLAGS.split(),
            f"--remote-debugging-port={port}",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with sync_playwright() as playwright:
            browser = _connect(playwright, port)
            jar = [{"name": c.name, "value": c.value or "", "url": url} for c in player.http.cookies.jar]
            browser.contexts[0].add_cookies(jar)  # type: ignore[arg-type]
        yield port
    finally:
        chrome.terminate()
        chrome.wait()


def _connect(playwright: Playwright, port: int) -> Browser:
    deadline = time.monotonic() + 20
    while True:
        try:
            return playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        except PlaywrightError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def run_once(url: str, out: Path, port: int | None) -> dict[str, Any]:
    """One Lighthouse run: in a fresh Chromium, or in the one on `port`."""
    command = [
        str(LIGHTHOUSE),
        url,
        "--only-categories=performance,accessibility,best-practices",
        "--output=json",
        f"--output-path={out}",
        "--quiet",
    ]
    command.append(f"--port={port}" if port else f"--chrome-flags={CHROME_FLAGS}")
    subprocess.run(command, check=True, env={"CHROME_PATH": str(CHROMIUM), "PATH": "/usr/bin:/bin"})
    report = json.loads(out.read_text())
    lcp_element = report["audits"].get("largest-contentful-paint-element", {}).get("details", {})
    return {
        "scores": {name: category["score"] for name, category in report["categories"].items()},
        "metrics": {name: report["audits"][name]["numericValue"] for name in METRICS},
        "final_url": report["finalDisplayedUrl"],
        "lcp_element": _lcp_selector(lcp_element),
        "lighthouse": report["lighthouseVersion"],
    }


def _lcp_selector(details: dict[str, Any]) -> str | None:
    """The selector of the largest paint's element, when Lighthouse found one."""
    for item in details.get("items", []):
        for row in item.get("items", [item]):
            node = row.get("node")
            if node:
                return str(node.get("selector"))
    return None


def measure(page: Page, base: str, port: int | None, workdir: Path, rounds: int) -> dict[str, Any]:
    slug = page.path.strip("/").replace("/", "_") or "root"
    runs = [run_once(base + page.path, workdir / f"{slug}-{n}.json", port) for n in range(rounds)]
    return {
        "guarded": page.guarded,
        "scores": {k: statistics.median(r["scores"][k] for r in runs) for k in runs[0]["scores"]},
        "metrics_ms": {k: round(statistics.median(r["metrics"][k] for r in runs), 3) for k in METRICS},
        "final_url": runs[0]["final_url"],
        "runs": runs,
    }


def redirected(page: Page, figures: dict[str, Any]) -> list[str]:
    """The final URLs of the page's runs that are not the page (e.g. a guarded page sent to /home)."""
    expected = LANDS_ON.get(page.path, page.path)
    return [r["final_url"] for r in figures["runs"] if urlsplit(r["final_url"]).path != expected]


def table(results: dict[str, dict[str, Any]]) -> str:
    lines = [f"{'page':<22} {'who':<10} {'perf':>5} {'a11y':>5} {'bp':>5} {'FCP':>6} {'LCP':>6} {'TBT':>5} {'CLS':>6}"]
    for path, figures in results.items():
        scores, metrics = figures["scores"], figures["metrics_ms"]
        low = " <" if min(scores["performance"], scores["accessibility"]) < TARGET else ""
        lines.append(
            f"{path:<22} {'logged in' if figures['guarded'] else 'visitor':<10} {scores['performance']:>5.2f} "
            f"{scores['accessibility']:>5.2f} {scores['best-practices']:>5.2f} "
            f"{metrics['first-contentful-paint'] / 1000:>5.1f}s {metrics['largest-contentful-paint'] / 1000:>5.1f}s "
            f"{metrics['total-blocking-time']:>5.0f} {metrics['cumulative-layout-shift']:>6.3f}{low}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", help="comma-separated paths (default: every route)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--reports", type=Path, help="keep every Lighthouse report in this directory")
    args = parser.parse_args()
    chosen = pages()
    if args.pages:
        wanted = args.pages.split(",")
        chosen = [page for page in chosen if page.path in wanted]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.reports or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        stack = start_stack(Path(tmp), env={"GATEWAY_ENV": "development"})
        try:
            results: dict[str, dict[str, Any]] = {}
            for page in (page for page in chosen if not page.guarded):
                results[page.path] = measure(page, stack.url, None, workdir, args.rounds)
                print(table({page.path: results[page.path]}).splitlines()[1], flush=True)
            guarded = [page for page in chosen if page.guarded]
            with signed_in_chrome(stack.url, Path(tmp) / "profile") as port:
                for page in guarded:
                    results[page.path] = measure(page, stack.url, port, workdir, args.rounds)
                    print(table({page.path: results[page.path]}).splitlines()[1], flush=True)
        finally:
            stack.stop()
    print(table(results))
    write_results(results, args.rounds, started, partial=bool(args.pages))
    wrong = {page.path: urls for page in chosen if (urls := redirected(page, results[page.path]))}
    for path, urls in wrong.items():
        print(f"{path}: the report is of {', '.join(urls)}, not of the page", file=sys.stderr)
    return 1 if wrong else 0


def write_results(results: dict[str, dict[str, Any]], rounds: int, started: float, *, partial: bool) -> None:
    """bench/results/lighthouse.json; a run of some pages replaces those pages' entries (each
    entry says when it was measured)."""
    RESULTS.mkdir(exist_ok=True)
    measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for figures in results.values():
        figures["measured"] = measured
    if partial:
        previous = json.loads((RESULTS / "lighthouse.json").read_text())
        previous["pages"].update(results)
        (RESULTS / "lighthouse.json").write_text(json.dumps(previous, indent=2) + "\n")
        return
    result = {
        "profile": "mobile (default), simulated throttling",
        "rounds": rounds,
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "minutes": round((time.monotonic() - started) / 60, 1),
        "pages": results,
    }
    (RESULTS / "lighthouse.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
