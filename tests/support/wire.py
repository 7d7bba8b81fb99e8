"""What crossed the wire for one page in Chromium, read through the DevTools protocol: each
answer's status as received (304 for a revalidated copy, which the page itself sees as the stored
200), its encoding, type and bytes (head and body as received), and whether the browser took it
from its own cache. Used by the browser tests and bench/bytes.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext


@dataclass
class Answer:
    url: str = ""
    status: int = 0
    """As the network gave it: a revalidated copy is 304 here (the page sees the stored 200)."""
    encoding: str = ""
    media_type: str = ""
    wire: int = 0
    """Head and body as received (`encodedDataLength`)."""
    from_cache: bool = False
    finished: bool = False

    @property
    def path(self) -> str:
        return _path(self.url)


@dataclass
class Visit:
    answers: dict[str, Answer] = field(default_factory=dict)
    """By DevTools' request id."""

    def crossed(self) -> list[Answer]:
        """The answers that crossed the wire (not taken from the browser's own cache)."""
        return [a for a in self.answers.values() if a.finished and not a.from_cache and a.wire > 0]

    def figures(self) -> dict[str, Any]:
        crossed = self.crossed()
        # over 1 kB of body: the head (about 400 bytes here) is counted in `wire`
        uncompressed_json = sorted(
            {a.path for a in crossed if "json" in a.media_type and not a.encoding and a.wire > 1424}
        )
        largest = sorted(crossed, key=lambda a: -a.wire)[:6]
        return {
            "bytes": sum(a.wire for a in crossed),
            "requests": len(crossed),
            "not_modified": sum(1 for a in crossed if a.status == 304),
            "from_browser_cache": sum(1 for a in self.answers.values() if a.from_cache),
            "uncompressed_json_over_1kb": uncompressed_json,
            "largest": [f"{a.path} {a.status} {a.encoding or 'identity'} {a.wire}" for a in largest],
        }


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def visit(context: BrowserContext, url: str, settle_ms: int = 2000) -> Visit:
    """One page in a new tab of `context` (its cache and cookies as they are), measured until the
    network has been idle for half a second and `settle_ms` more."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    seen = Visit()

    def received(event: dict[str, Any]) -> None:
        response = event["response"]
        answer = seen.answers.setdefault(event["requestId"], Answer())
        headers = {name.lower(): value for name, value in response.get("headers", {}).items()}
        answer.url, answer.status = response["url"], answer.status or response["status"]
        answer.encoding = headers.get("content-encoding", "")
        answer.media_type = headers.get("content-type", "")
        answer.from_cache = answer.from_cache or bool(
            response.get("fromDiskCache") or response.get("fromPrefetchCache")
        )

    def finished(event: dict[str, Any]) -> None:
        answer = seen.answers.get(event["requestId"])
        if answer is not None:
            answer.finished, answer.wire = True, int(event["encodedDataLength"])

    def from_cache(event: dict[str, Any]) -> None:
        seen.answers.setdefault(event["requestId"], Answer()).from_cache = True

    def wire_status(event: dict[str, Any]) -> None:  # the status line that crossed the wire
        seen.answers.setdefault(event["requestId"], Answer()).status = int(event["statusCode"])

    cdp.on("Network.responseReceived", received)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestServedFromCache", from_cache)
    cdp.on("Network.responseReceivedExtraInfo", wire_status)
    cdp.send("Network.enable")
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(settle_ms)
    cdp.detach()
    page.close()
    return seen
