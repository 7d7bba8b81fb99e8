"""The CMS uploads: every image the content links to, drawn as SVG from its file name.

A file name says what to draw, so any URL the content holds resolves without storing
images:
- `<kind>-<site>-<locale>-<n>.svg`: banner theme `n` of a kind (hero, lobby, footer,
  event, poker) in one language, branded with the site's name;
- `game-<provider>-<slug>.svg` (square tile) and `card-<provider>-<slug>.svg` (portrait
  carousel card): a game tile titled from the slug;
- `icon-<name>.svg`: a header-link icon;
- `pay-<name>.svg` and `live-<provider>.svg`: payment logos and live-casino tiles (`marks`).
The banner themes live here because a banner image and the link it is shown with are
authored together in the CMS.
"""

from __future__ import annotations

import colorsys
import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Literal

from contracts.locales import LOCALES, Locale
from sandbox import marks
from sandbox.texts import Words, words

BannerKind = Literal["hero", "lobby", "footer", "event", "poker"]
UPLOADS = "/capi/uploads/"


@dataclass(frozen=True)
class BannerTheme:
    router_link: str
    headline: Words
    past: bool = False
    """A past edition: the CMS keeps it, inactive."""


def _theme(router_link: str, kind: BannerKind, n: int, *, past: bool = False) -> BannerTheme:
    return BannerTheme(router_link, words(f"banner.{kind}.{n}"), past)


BANNERS: Mapping[BannerKind, tuple[BannerTheme, ...]] = {
    "hero": (
        _theme("/promotions", "hero", 1),
        _theme("/games/slots", "hero", 2),
        _theme("/games/livedealer", "hero", 3),
        _theme("/games/sports", "hero", 4),
        _theme("/DropWin", "hero", 5),
    ),
    "lobby": (
        _theme("/games/slots", "lobby", 1),
        _theme("/games/Blackjack", "lobby", 2),
        _theme("/ReelD", "lobby", 3),
    ),
    "footer": (
        _theme("/promotions", "footer", 1),
        _theme("/blackjackleague", "footer", 2),
        _theme("/takeMeFishin", "footer", 3),
    ),
    "event": (
        _theme("/Events", "event", 1),
        _theme("/HolidayRush", "event", 2),
        _theme("/DropWin", "event", 3),
        _theme("/Events", "event", 4, past=True),
    ),
    "poker": (
        _theme("/Evenbetpoker", "poker", 1),
        _theme("/poker", "poker", 2),
        _theme("/poker", "poker", 3),
    ),
}

PROVIDER_LABELS: Mapping[str, str] = {
    "bti": "BTi Sports",
    "caballo": "Caballo Racing",
    "vivogaming": "Vivo Gaming",
    "pragmaticplay": "Pragmatic Play",
    "mancala": "Mancala Gaming",
    "pragmaticplaylivecasino": "Pragmatic Play Live",
    "evenbetpoker": "EvenBet Poker",
    "rubyplay": "Ruby Play",
    "ezugi": "Ezugi",
    "evolution": "Evolution",
    "habanero": "Habanero",
    "endorphina": "Endorphina",
    "vibra": "Vibra Gaming",
}

ICONS: Mapping[str, str] = {
    "home": "⌂",
    "poker": "♠",
    "live": "♦",
    "sports": "⚽",
    "slots": "7",
    "horses": "♞",
    "drops": "✦",
    "blackjack": "21",
    "promotions": "%",
    "contact": "✉",
    "balance": "$",
    "wheel": "✺",
    "league": "♛",
    "lobby": "☰",
    "reels": "❄",
    "main": "★",
    "flywin": "✈",
    "holiday": "❅",
    "fishing": "≈",
}

CALL_TO_ACTION: Words = words("banner.callToAction")
BANNER_SIZES: Mapping[BannerKind, tuple[int, int]] = {
    "hero": (1600, 500),
    "lobby": (800, 300),
    "footer": (1200, 250),
    "event": (1600, 500),
    "poker": (1600, 500),
}
SMALL_WORDS = frozenset({"a", "and", "de", "del", "in", "of", "the", "to"})

_KINDS: Mapping[str, BannerKind] = {kind: kind for kind in BANNERS}
_LOCALES: Mapping[str, Locale] = {locale: locale for locale in LOCALES}
_BANNER = re.compile(rf"^(hero|lobby|footer|event|poker)-([a-z0-9]+)-({'|'.join(LOCALES)})-(\d+)\.svg$")
_GAME = re.compile(r"^(game|card)-([a-z0-9]+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.svg$")
_ICON = re.compile(r"^icon-([a-z]+)\.svg$")
_PAY = re.compile(r"^pay-([a-z-]+)\.svg$")
_LIVE = re.compile(r"^live-([a-z]+)\.svg$")


def slug(name: str) -> str:
    """`Pharaoh's Vault` -> `pharaohs-vault` (accents dropped, so names stay ASCII)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower().replace("'", "")).strip("-")


def banner_url(kind: BannerKind, site_id: str, locale: Locale, n: int) -> str:
    return f"{UPLOADS}{kind}-{site_id}-{locale}-{n}.svg"


def game_url(provider: str, name: str) -> str:
    return f"{UPLOADS}game-{provider}-{slug(name)}.svg"


def card_url(provider: str, name: str) -> str:
    return f"{UPLOADS}card-{provider}-{slug(name)}.svg"


def icon_url(icon: str) -> str:
    return f"{UPLOADS}icon-{icon}.svg"


def pay_logo_url(name: str) -> str:
    return f"{UPLOADS}pay-{name}.svg"


def live_tile_url(provider: str) -> str:
    return f"{UPLOADS}live-{provider}.svg"


def render(file_name: str, site_names: Mapping[str, str]) -> str | None:
    """The SVG a file name stands for; None when the name stands for nothing."""
    banner = _BANNER.match(file_name)
    if banner:
        kind, site_id, locale, n = banner.groups()
        return _banner(file_name, _KINDS[kind], site_names.get(site_id), _LOCALES[locale], int(n))
    game = _GAME.match(file_name)
    if game:
        shape, provider, game_slug = game.groups()
        return _game_tile(file_name, shape, provider, game_slug)
    icon = _ICON.match(file_name)
    if icon and icon.group(1) in ICONS:
        return _icon(file_name, ICONS[icon.group(1)])
    pay = _PAY.match(file_name)
    if pay:
        return marks.pay_logo(pay.group(1))
    live = _LIVE.match(file_name)
    return marks.live_tile(live.group(1)) if live else None


def title_of(game_slug: str) -> str:
    words = game_slug.split("-")
    return " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))


def _banner(file_name: str, kind: BannerKind, site_name: str | None, lang: Locale, n: int) -> str | None:
    themes = BANNERS[kind]
    if site_name is None or not 1 <= n <= len(themes):
        return None
    width, height = BANNER_SIZES[kind]
    margin, headline = height // 5, themes[n - 1].headline[lang]
    brand = _text(site_name.upper(), x=margin, y=margin, size=height // 12, weight=800, opacity=0.85)
    art = _orbs(file_name, width, height) + brand + _headline(headline, width, height) + _cta(lang, width, height)
    return _svg(file_name, f"{site_name}: {headline}", width, height, art)


def _headline(text: str, width: int, height: int) -> str:
    """The headline between the brand line and the call to action, centred in that band with
    clear space above and below (a smaller type when its lines would not fit)."""
    margin, size = height // 5, height // 6
    top, bottom = margin, height - margin - height // 7  # brand baseline; top of the call to action
    lines: list[str] = []
    for _ in range(2):  # a smaller size may need fewer lines
        # Verdana letters are about 0.6 em wide; a fifth of the line stays free.
        lines = _wrap(text, int((width - 2 * margin) * 0.8 / (size * 0.6)))
        # Lines 1.2 em apart; a line reaches 0.75 em above its baseline and 0.25 em below;
        # 0.55 em free under the brand and 0.5 em above the call to action.
        size = min(size, int((bottom - top) / (1.2 * len(lines) - 0.2 + 1.05)))
    first = top + 0.55 * size + ((bottom - top) - (1.2 * len(lines) + 0.85) * size) / 2 + 0.75 * size
    return _text_lines(lines, x=margin, y=round(first), size=size)


def _cta(lang: Locale, width: int, height: int) -> str:
    margin, cta_w, cta_h = height // 5, max(width // 6, height * 7 // 10), height // 7
    top = height - margin - cta_h
    return (
        f'<rect x="{margin}" y="{top}" width="{cta_w}" height="{cta_h}" rx="{cta_h // 2}" fill="#ffd34d"/>'
        f'<text x="{margin + cta_w // 2}" y="{top + cta_h * 0.66:.0f}" font-size="{cta_h // 2}" '
        f'text-anchor="middle" font-family="Verdana, sans-serif" font-weight="700" fill="#2b1600">'
        f"{escape(CALL_TO_ACTION[lang])}</text>"
    )


def _game_tile(file_name: str, shape: str, provider: str, game_slug: str) -> str | None:
    label = PROVIDER_LABELS.get(provider)
    if label is None:
        return None
    width, height, size, per_line = (300, 300, 30, 14) if shape == "game" else (225, 300, 26, 12)
    lines = _wrap(title_of(game_slug), per_line)
    title = _text_lines(lines, x=width // 2, y=height // 2 - (len(lines) - 1) * size // 2, size=size, anchor="middle")
    ribbon = f'<rect x="0" y="{height - 44}" width="{width}" height="44" fill="#000" opacity="0.35"/>' + _text(
        label, x=width // 2, y=height - 16, size=16, anchor="middle", weight=600
    )
    art = _orbs(file_name, width, height) + _reel_marks(width) + title + ribbon
    return _svg(file_name, f"{title_of(game_slug)} · {label}", width, height, art)


def _icon(file_name: str, glyph: str) -> str:
    body = '<circle cx="32" cy="32" r="28" fill="#fff" opacity="0.18"/>' + _text(
        glyph, x=32, y=42, size=26, anchor="middle", weight=700
    )
    return _svg(file_name, file_name.removesuffix(".svg"), 64, 64, body)


def _svg(file_name: str, label: str, width: int, height: int, body: str) -> str:
    start, end = _colours(file_name)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img"><title>{escape(label)}</title>'
        f'<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{start}"/><stop offset="1" stop-color="{end}"/></linearGradient></defs>'
        f'<rect width="{width}" height="{height}" rx="{min(width, height) // 16}" fill="url(#bg)"/>'
        f"{body}</svg>"
    )


def _colours(file_name: str) -> tuple[str, str]:
    """Two gradient stops derived from the name, so a file always looks the same."""
    digest = hashlib.sha256(file_name.encode()).digest()
    hue = digest[0] / 255
    shift = 0.08 + digest[1] / 255 * 0.2
    return _hex(hue, 0.42, 0.75), _hex((hue + shift) % 1.0, 0.22, 0.8)


def _hex(hue: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _orbs(file_name: str, width: int, height: int) -> str:
    """Soft circles placed by the name's hash: decoration that differs per image."""
    digest = hashlib.sha256(("orbs" + file_name).encode()).digest()
    circles = []
    for i in range(4):
        cx, cy, r = digest[3 * i] / 255 * width, digest[3 * i + 1] / 255 * height, 20 + digest[3 * i + 2] % 90
        circles.append(f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r}" fill="#fff" opacity="0.08"/>')
    return "".join(circles)


def _reel_marks(width: int) -> str:
    symbols = ("7", "♦", "★")
    step = width // 4
    return "".join(
        _text(symbol, x=step * (i + 1), y=70, size=34, anchor="middle", weight=700, opacity=0.5)
        for i, symbol in enumerate(symbols)
    )


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _text_lines(lines: list[str], *, x: int, y: int, size: int, anchor: str = "start") -> str:
    return "".join(
        _text(line, x=x, y=y + i * int(size * 1.2), size=size, anchor=anchor, weight=800)
        for i, line in enumerate(lines)
    )


def _text(
    content: str, *, x: int, y: int, size: int, anchor: str = "start", weight: int = 400, opacity: float = 1.0
) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-family="Verdana, sans-serif" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="#fff" fill-opacity="{opacity}">{escape(content)}</text>'
    )
