"""Payment-method logos and the live-casino tiles, as CMS uploads (`pay-<name>.svg`,
`live-<provider>.svg`).

Marks of the sandbox's own: shapes and initials in a method's colours, never a copy of a
brand's logo. The cashier's payment systems and pay methods point at them (`image`), as the
platform hands out a logo URL for each.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape

PAY_WIDTH, PAY_HEIGHT = 96, 64
LIVE_WIDTH, LIVE_HEIGHT = 480, 300
FONT = "Verdana, sans-serif"


def _text(content: str, x: float, y: float, size: int, fill: str = "#fff", weight: int = 700) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-family="{FONT}" font-weight="{weight}" '
        f'text-anchor="middle" fill="{fill}">{escape(content)}</text>'
    )


def _chevrons(x: float, y: float) -> str:
    """Two arrow heads, orange behind green: a payment moving on."""
    return (
        f'<path d="M{x} {y}l16 14-16 14h9l16-14-16-14z" fill="#f28b1e"/>'
        f'<path d="M{x + 13} {y}l16 14-16 14h9l16-14-16-14z" fill="#1e9c52"/>'
    )


def _roulette(cx: int, cy: int, pockets: int = 19, radius: int = 78) -> str:
    """A wheel of alternating red and black pockets around a wooden hub."""
    step = 2 * math.pi / pockets

    def point(k: int) -> str:
        return f"{cx + radius * math.cos(k * step):.1f} {cy + radius * math.sin(k * step):.1f}"

    sectors = "".join(
        f'<path d="M{cx} {cy} L{point(k)} A{radius} {radius} 0 0 1 {point(k + 1)}Z" '
        f'fill="{"#b3122a" if k % 2 else "#161616"}"/>'
        for k in range(pockets)
    )
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{radius + 14}" fill="#3b2414"/>{sectors}'
        f'<circle cx="{cx}" cy="{cy}" r="{radius // 2}" fill="#3b2414"/>'
        f'<circle cx="{cx}" cy="{cy}" r="10" fill="#e3b341"/><circle cx="{cx + 32}" cy="{cy - 48}" r="7" fill="#fff"/>'
    )


# Each mark is drawn in a 96x64 box on its own background.
PAY_MARKS: Mapping[str, tuple[str, str, str]] = {
    # name: (label, background, body)
    "phonepe": (
        "PhonePe",
        "#5a2a9c",
        '<rect x="35" y="9" width="26" height="46" rx="5" fill="none" stroke="#fff" stroke-width="3"/>'
        '<rect x="43" y="13" width="10" height="2.5" rx="1.2" fill="#fff"/>' + _text("₹", 48, 42, 20),
    ),
    "paytm": (
        "Paytm",
        "#e6f6fd",
        '<rect x="20" y="18" width="56" height="32" rx="7" fill="#0c2f6b"/>'
        '<rect x="52" y="27" width="26" height="14" rx="5" fill="#1ab3ea"/>'
        '<circle cx="60" cy="34" r="3" fill="#fff"/>' + _text("P", 34, 40, 16),
    ),
    "upi": ("UPI", "#ffffff", _chevrons(26, 12) + _text("UPI", 48, 58, 10, "#33415c")),
    "upi-id": (
        "UPI ID",
        "#ffffff",
        _chevrons(18, 12) + '<circle cx="74" cy="26" r="12" fill="#33415c"/>' + _text("@", 74, 31, 14),
    ),
    "scan": (
        "Scan and pay",
        "#1d2633",
        "".join(
            f'<rect x="{x}" y="{y}" width="16" height="16" fill="none" stroke="#fff" stroke-width="3"/>'
            f'<rect x="{x + 5}" y="{y + 5}" width="6" height="6" fill="#fff"/>'
            for x, y in ((26, 8), (54, 8), (26, 38))
        )
        + '<rect x="56" y="40" width="5" height="5" fill="#4fd1c5"/><rect x="64" y="48" width="5" height="5" '
        'fill="#4fd1c5"/><rect x="64" y="40" width="5" height="5" fill="#fff"/>',
    ),
    "card": (
        "Card or UPI",
        "#1f4fa3",
        '<rect x="18" y="14" width="60" height="38" rx="5" fill="#fff"/>'
        '<rect x="18" y="22" width="60" height="7" fill="#1f4fa3" opacity="0.35"/>'
        '<rect x="25" y="34" width="12" height="9" rx="2" fill="#e3b341"/>'
        '<rect x="44" y="40" width="26" height="3" rx="1.5" fill="#1f4fa3" opacity="0.5"/>',
    ),
    "wallets": (
        "UPI and wallets",
        "#f6efe4",
        '<rect x="16" y="10" width="24" height="44" rx="5" fill="#33415c"/>'
        '<rect x="20" y="16" width="16" height="28" rx="2" fill="#fff"/>' + _chevrons(46, 18),
    ),
    "transact": (
        "Transact",
        "#0f7f82",
        '<path d="M24 24h38v-8l14 12-14 12v-8H24z" fill="#fff"/>'
        '<path d="M72 44H34v8L20 40l14-12v8h38z" fill="#bdf0ea" opacity="0.9"/>',
    ),
    "venezuela": (
        "Venezuelan banks",
        "#ffffff",
        '<path d="M48 8 20 22h56z" fill="#1b2f6e"/>'
        + "".join(f'<rect x="{x}" y="25" width="6" height="18" fill="#1b2f6e"/>' for x in (25, 37, 53, 65))
        + '<rect x="18" y="46" width="60" height="4" fill="#f4c20d"/><rect x="18" y="50" width="60" height="4" '
        'fill="#1b4fb4"/><rect x="18" y="54" width="60" height="4" fill="#d52b1e"/>',
    ),
    "perfectmoney": (
        "Perfect Money",
        "#fdf1f1",
        '<circle cx="48" cy="32" r="24" fill="#c8202f"/>' + _text("PM", 48, 40, 20),
    ),
}

LIVE_TILES: Mapping[str, tuple[str, str, str, str]] = {
    # provider: (name, background from, background to, art)
    "evolution": (
        "Evolution",
        "#0c5a35",
        "#06281a",
        _roulette(360, 140),
    ),
    "ezugi": (
        "Ezugi",
        "#5b1d5e",
        "#220b2b",
        '<g transform="rotate(-12 330 150)"><rect x="282" y="60" width="96" height="136" rx="10" fill="#fff"/>'
        + _text("A", 306, 94, 26, "#1d2633")
        + _text("♠", 330, 150, 56, "#1d2633")
        + '</g><g transform="rotate(10 390 150)"><rect x="346" y="70" width="96" height="136" rx="10" fill="#fff"/>'
        + _text("K", 370, 104, 26, "#c8202f")
        + _text("♥", 394, 160, 56, "#c8202f")
        + "</g>",
    ),
}


def pay_logo(name: str) -> str | None:
    """`pay-<name>.svg`: a payment method's logo, or None for an unknown name."""
    mark = PAY_MARKS.get(name)
    if mark is None:
        return None
    label, background, body = mark
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAY_WIDTH}" height="{PAY_HEIGHT}" '
        f'viewBox="0 0 {PAY_WIDTH} {PAY_HEIGHT}" role="img"><title>{escape(label)}</title>'
        f'<rect width="{PAY_WIDTH}" height="{PAY_HEIGHT}" rx="10" fill="{background}"/>{body}</svg>'
    )


def live_tile(provider: str) -> str | None:
    """`live-<provider>.svg`: a live-casino provider's tile, or None for an unknown provider."""
    tile = LIVE_TILES.get(provider)
    if tile is None:
        return None
    name, start, end, art = tile
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{LIVE_WIDTH}" height="{LIVE_HEIGHT}" '
        f'viewBox="0 0 {LIVE_WIDTH} {LIVE_HEIGHT}" role="img"><title>{escape(name)}</title>'
        f'<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{start}"/>'
        f'<stop offset="1" stop-color="{end}"/></linearGradient></defs>'
        f'<rect width="{LIVE_WIDTH}" height="{LIVE_HEIGHT}" rx="18" fill="url(#bg)"/>{art}'
        f'<text x="36" y="250" font-size="44" font-family="{FONT}" font-weight="800" fill="#fff">'
        f"{escape(name)}</text>"
        f'<rect x="36" y="40" width="86" height="30" rx="15" fill="#e0262f"/>'
        f'<circle cx="54" cy="55" r="5" fill="#fff"/>'
        f'<text x="64" y="61" font-size="16" font-family="{FONT}" font-weight="700" fill="#fff">LIVE</text></svg>'
    )
