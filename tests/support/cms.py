"""Content answers that keep the platform's contract (`contracts.content`), for tests whose
mocked CMS must answer as a real one does: the gateway refuses a list of anything else as a 502."""

from __future__ import annotations

from typing import Any


def banner(number: int) -> dict[str, Any]:
    return {
        "id": number,
        "routerLink": f"/promotions/{number}",
        "status": "active",
        "locale": "es",
        "heroBanner": {"url": f"/capi/uploads/banner-{number}.webp"},
    }


def banners(*numbers: int) -> dict[str, Any]:
    """A `home-banners` answer with one banner per number (its `id`)."""
    return {
        "data": [banner(n) for n in numbers],
        "meta": {"pagination": {"page": 1, "pageSize": 25, "total": len(numbers)}},
    }


def ids(answer: dict[str, Any]) -> list[int]:
    return [entry["id"] for entry in answer["data"]]
