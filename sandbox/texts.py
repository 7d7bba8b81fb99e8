"""The sandbox's texts in every language: one file per language, `texts/<lang>.json`.

Banner headlines, header-link names, the sportsbook's leagues, teams and markets, the demo
game page: each is a key, and each language's file gives its text. Adding a language to
`contracts.locales` needs its file here with every key (the sandbox does not start
without it; `tests/unit/sandbox/test_texts.py` names what is missing).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from contracts.locales import DEFAULT_LOCALE, LOCALES, Locale

TEXTS_DIR = Path(__file__).parent / "texts"

Words = Mapping[Locale, str]
"""One text in every language."""


def load(lang: str, folder: Path = TEXTS_DIR) -> dict[str, str]:
    texts: dict[str, str] = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
    return texts


TEXTS: Mapping[Locale, Mapping[str, str]] = {lang: load(lang) for lang in LOCALES}


def words(key: str) -> Words:
    """The text `key` in every language."""
    return {lang: TEXTS[lang][key] for lang in LOCALES}


def same(text: str) -> Words:
    """A name that is the same in every language (a club, a player, a brand)."""
    return dict.fromkeys(LOCALES, text)


def locale_of(value: str | None) -> Locale:
    """`value` when it is one of the languages, else the default language."""
    return next((lang for lang in LOCALES if lang == value), DEFAULT_LOCALE)
