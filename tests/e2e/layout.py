"""The layout sweep's parts: the SPA's route table read from its source, the checks a player's
eye makes (run in the page), and the wait for a screen to finish arriving."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Request

from tests.support.stack import ROOT

ROUTER = ROOT / "spa" / "src" / "app" / "router.tsx"
SPANISH = ROOT / "spa" / "src" / "locales" / "es"

# The URLs the sweep opens for a route with a parameter or the catch-all; a route added with
# one fails the sweep until it is given its URLs here.
SAMPLE_URLS: dict[str, tuple[str, ...]] = {
    "games/:category?": ("/games/slots", "/games/livedealer", "/games/sports", "/games/horseracing"),
    "*": ("/no-such-page",),
}


@dataclass(frozen=True)
class Route:
    pattern: str
    """As written in the route table, e.g. `games/:category?`."""
    url: str
    guarded: bool
    """`guardedScreen(...)`: a logged-out visitor is sent to /home."""


def route_table(source: str | None = None) -> list[Route]:
    """Every route of `router.tsx`: its `screen("path", ...)` and `guardedScreen("path", ...)`
    calls and its `{ path: "..." }` objects, each as the URLs to open."""
    source = ROUTER.read_text() if source is None else source
    found: list[tuple[str, bool]] = []
    for name, guarded in (("screen", False), ("guardedScreen", True)):
        found += [(json.loads(args[0]), guarded) for args in _calls(source, name)]
    found += [(match.group(1), False) for match in re.finditer(r'\bpath:\s*"([^"]*)"', source)]
    routes: list[Route] = []
    for pattern, guarded in found:
        if pattern in SAMPLE_URLS:
            urls = SAMPLE_URLS[pattern]
        elif ":" in pattern or "*" in pattern:
            raise AssertionError(f"route {pattern!r} has a parameter: give it URLs in SAMPLE_URLS ({__file__})")
        else:
            urls = ("/" + pattern.lstrip("/"),)
        routes += [Route(pattern, url, guarded) for url in urls]
    return routes


def _calls(source: str, name: str) -> list[list[str]]:
    """The top-level arguments of each `name("...", ...)` call, as source text."""
    calls = []
    for match in re.finditer(rf'\b{name}\(\s*"', source):
        args, depth, start, quote = [], 0, match.end() - 1, ""
        for i in range(match.end() - 1, len(source)):
            char = source[i]
            if quote:
                quote = "" if char == quote and source[i - 1] != "\\" else quote
            elif char in "\"'`":
                quote = char
            elif char in "([{":
                depth += 1
            elif char in ")]}" and depth:
                depth -= 1
            elif char == ")" or (char == "," and depth == 0):
                args.append(source[start:i].strip())
                start = i + 1
                if char == ")":
                    break
        calls.append([arg for arg in args if arg])
    return calls


def translation_keys(spanish: Path = SPANISH) -> tuple[frozenset[str], frozenset[str]]:
    """(every key of the Spanish files, as `a.b.c`; the namespaces): what i18next shows when a
    text is missing or its namespace never loaded. `spanish`: another app's files (the console's)."""
    keys: set[str] = set()

    def walk(prefix: str, value: object) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else key, inner)
        else:
            keys.add(prefix)
            keys.add(re.sub(r"_(zero|one|two|few|many|other)$", "", prefix))

    namespaces = set()
    for path in sorted(spanish.glob("*.json")):
        namespaces.add(path.stem)
        walk("", json.loads(path.read_text()))
    return frozenset(k for k in keys if "." in k), frozenset(namespaces)


KEYS, NAMESPACES = translation_keys()
_TOKEN = re.compile(r"(?<![\w./:-])([a-z][\w-]*:)?([A-Za-z][\w-]*(?:\.[\w-]+)+)")


def raw_keys(text: str, known: tuple[frozenset[str], frozenset[str]] = (KEYS, NAMESPACES)) -> list[str]:
    """The untranslated keys in a screen's visible text (`menu.events`, `shell:menu.events`);
    `known`: another app's keys and namespaces (`translation_keys`)."""
    keys, namespaces = known
    found = []
    for match in _TOKEN.finditer(text):
        namespace, key = match.group(1), match.group(2)
        if key in keys or (namespace and namespace[:-1] in namespaces):
            found.append(match.group(0))
    return sorted(set(found))


# What does not fit on the current screen, and its visible text (layout_checks.js).
CHECKS = Path(__file__).with_name("layout_checks.js").read_text()
MOST_PER_CHECK = 6

# Run in the page: once the main thread is idle (the code that came has run and rendered),
# nothing of the screen is still on its way (the boot frame, a page loader, a finite animation
# such as the side menu sliding in).
SCREEN_READY = """
async () => {
  await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return !document.querySelector('.boot, .page-loader')
    && document.getAnimations().every((a) => a.playState !== 'running'
         || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
}
"""


# The player's balance stream (server-sent events): one request held open while logged in.
BALANCE_STREAM = "/bff/events"


@dataclass
class Network:
    """The page's requests in flight (its frames' too), to know when a screen has arrived."""

    page: Page
    in_flight: set[Request] = field(default_factory=set)
    last_change: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.page.on("request", self._started)
        self.page.on("requestfinished", self._ended)
        self.page.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        if request.url.split("?")[0].endswith(BALANCE_STREAM):
            return  # open for the whole visit by design: it never "arrives"
        self.in_flight.add(request)
        self.last_change = time.monotonic()

    def _ended(self, request: Request) -> None:
        self.in_flight.discard(request)
        self.last_change = time.monotonic()

    def settle(self, quiet: float = 0.08, timeout: float = 15.0) -> None:
        """Returns once no request has started or ended for `quiet` seconds, the page's main
        thread has gone idle without asking for more, and the screen shows no loader; a
        navigation away from the SPA (a static page) is waited for too."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(20)
            if self.in_flight or time.monotonic() - self.last_change < quiet:
                continue
            before = self.last_change
            try:
                ready = self.page.evaluate(SCREEN_READY)
            except PlaywrightError:  # the page is navigating
                continue
            if ready and not self.in_flight and self.last_change == before:
                return
        pending = ", ".join(sorted(r.url for r in self.in_flight)) or "none"
        raise AssertionError(f"{self.page.url} did not settle in {timeout:.0f} s (requests in flight: {pending})")


# What the sweep looks for; `hidden` (a box's content behind a sideways scroll or cut, text past
# the screen's edge) is asked for where every value must read whole.
SWEEP_CHECKS = ("overflow", "cut", "overlap", "spill")


def run_checks(
    page: Page,
    known: tuple[frozenset[str], frozenset[str]] = (KEYS, NAMESPACES),
    checks: tuple[str, ...] = SWEEP_CHECKS,
) -> list[dict[str, Any]]:
    """The checks' problems on the current screen, untranslated keys (of `known`) included."""
    result: dict[str, Any] = page.evaluate(CHECKS)
    problems: list[dict[str, Any]] = []
    for check in checks:
        found = [p for p in result["problems"] if p["check"] == check]
        problems += found[:MOST_PER_CHECK]
        if len(found) > MOST_PER_CHECK:
            message = f"and {len(found) - MOST_PER_CHECK} more"
            problems.append({"check": check, "message": message, "elements": []})
    for key in raw_keys(result["text"], known):
        problems.append({"check": "raw key", "message": f"untranslated key {key!r} on screen", "elements": []})
    return problems


def describe(problem: dict[str, Any]) -> str:
    elements = "; ".join(
        '{tag} "{text}" ({testid}) at x={0} y={1} w={2} h={3}'.format(*e["rect"], **e) for e in problem["elements"]
    )
    return f"{problem['check']}: {problem['message']}" + (f": {elements}" if elements else "")


def artifact_name(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", "-".join(p.strip("/") or "root" for p in parts)) + ".png"


def artifacts_dir(base: Path) -> Path:
    path = base / "sweep"
    path.mkdir(parents=True, exist_ok=True)
    return path
