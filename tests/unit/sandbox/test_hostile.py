"""The sandbox's written CMS entries (`sandbox/hostile.py`): added or replacing by id, served as the
platform serves its own, gone at reset."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

LINK = {"id": 14, "name": "Poker", "translatedNames": {"es": "Póker"}, "url": "/\\evil.example", "icon": None}
BANNER = {
    "id": 900,
    "routerLink": "javascript:alert(1)",
    "status": "active",
    "locale": "es",
    "heroBanner": {"url": "/capi/uploads/x.svg"},
}


def served(sandbox: TestClient[Any], path: str) -> list[dict[str, Any]]:
    answer = sandbox.get(path, params={"pagination[pageSize]": "100"}, headers={"siteid": "aurora"})
    data: list[dict[str, Any]] = answer.json()["data"]
    return data


def test_an_entry_with_a_seeded_id_replaces_it_and_a_new_one_is_added(sandbox: TestClient[Any]) -> None:
    before = served(sandbox, "/capi/header-links")
    assert sandbox.put("/_sandbox/sites/aurora/content/headerLinks", json=[LINK]).json() == {"entries": len(before)}
    links = served(sandbox, "/capi/header-links")
    assert [link["url"] for link in links if link["id"] == 14] == ["/\\evil.example"]
    sandbox.put("/_sandbox/sites/aurora/content/homeBanners", json=[BANNER]).raise_for_status()
    assert served(sandbox, "/capi/home-banners")[-1]["routerLink"] == "javascript:alert(1)"


def test_entries_are_held_to_their_contract_and_gone_at_reset(sandbox: TestClient[Any]) -> None:
    bad = sandbox.put("/_sandbox/sites/aurora/content/homeBanners", json=[{**BANNER, "heroBanner": None}])
    assert bad.status_code == 400
    assert sandbox.put("/_sandbox/sites/aurora/content/newsletters", json=[]).status_code == 404
    sandbox.put("/_sandbox/sites/aurora/content/homeBanners", json=[BANNER]).raise_for_status()
    sandbox.post("/_sandbox/reset").raise_for_status()
    assert all(banner["id"] != 900 for banner in served(sandbox, "/capi/home-banners"))
