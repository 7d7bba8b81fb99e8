"""The README stays a front page and the docs stay one web: the README is at most `MAX_README_LINES`
long and links every page under `docs/`, and every relative link in the README and the docs leads to
a file that exists and, where it names one, to a heading of that page."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def pages() -> list[Path]:
    """Every markdown page under `docs/`."""
    return sorted(DOCS.rglob("*.md"))


def prose(path: Path) -> str:
    """The page's text without its fenced code blocks (a link written in code is not a link)."""
    kept, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


def relative_links(path: Path) -> list[str]:
    """The page's links that point inside the repository (no scheme, not `mailto:`)."""
    return [
        target for target in LINK.findall(prose(path)) if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)
    ]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors a page's headings give (a repeated heading gets `-1`, `-2`...)."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(path).splitlines():
        heading = re.match(r"^#{1,6} (.*)$", line)
        if heading is None:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def test_the_readme_is_a_front_page() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines, more than {MAX_README_LINES}"


def test_the_readme_links_every_docs_page() -> None:
    linked = {(README.parent / target.split("#")[0]).resolve() for target in relative_links(README)}
    missing = [str(page.relative_to(ROOT)) for page in pages() if page.resolve() not in linked]
    assert not missing, f"docs pages README.md does not link: {missing}"


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in [README, *pages()]:
        for target in relative_links(page):
            file_part, _, anchor = target.partition("#")
            where = (page.parent / file_part).resolve() if file_part else page
            if not where.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and where.suffix == ".md" and anchor not in anchors(where):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)
