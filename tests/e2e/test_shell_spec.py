"""The spec's remaining shell items in a real browser (issue 40): the carousels' breakpoints and
the route guard that sends a visitor away before a player's screen is downloaded."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Request, expect

from tests.e2e.conftest import ARTIFACTS, Site

GUARDED = {"/profile": "ProfileScreen", "/mybalance": "MyBalanceScreen", "/deposit": "DepositScreen"}


def _scripts(page: Page) -> list[str]:
    """The names of the scripts the page asks for from now on."""
    names: list[str] = []

    def on_request(request: Request) -> None:
        if request.resource_type == "script":
            names.append(request.url.rsplit("/", 1)[-1])

    page.on("request", on_request)
    return names


@pytest.mark.parametrize(("path", "chunk"), GUARDED.items())
def test_a_visitor_on_a_players_page_goes_home_without_downloading_it(site: Site, path: str, chunk: str) -> None:
    scripts = _scripts(site.page)
    page = site.open(path)
    expect(page).to_have_url(re.compile(r"/home$"))
    expect(page.get_by_test_id("quick-icons")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert not [name for name in scripts if name.startswith(f"{chunk}-")], scripts
    # its texts neither: /profile's namespace is "profile", the others' "account" and "cashier"
    assert not [name for name in scripts if re.match(r"(profile|account|cashier)-", name)], scripts


def test_a_player_gets_the_page_and_its_code(site: Site) -> None:
    page = site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("header-logout")).to_be_visible()
    scripts = _scripts(page)
    page.goto(site.url + "/profile")
    expect(page).to_have_url(re.compile(r"/profile$"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert [name for name in scripts if name.startswith("ProfileScreen-")], scripts


@pytest.mark.parametrize(("width", "cards"), [(390, 2), (600, 3), (768, 5), (1024, 6), (1366, 7)])
def test_a_game_row_shows_the_specs_number_of_cards_for_the_width(site: Site, width: int, cards: int) -> None:
    site.page.set_viewport_size({"width": width, "height": 900})
    page = site.open("/home")
    row = page.get_by_test_id("games-row-rubyplay")
    expect(row.get_by_test_id("game-card")).to_have_count(8)
    row.scroll_into_view_if_needed()
    viewport = row.locator(".carousel__viewport").bounding_box()
    assert viewport
    boxes = [box for box in (card.bounding_box() for card in row.get_by_test_id("game-card").all()) if box]
    left, right = viewport["x"] - 1, viewport["x"] + viewport["width"] + 1
    inside = [box for box in boxes if box["x"] >= left and box["x"] + box["width"] <= right]
    assert len(inside) == cards, (width, viewport, boxes)
    # the cards fill the row: no card cut at its right edge, one 10 px gap between two
    assert abs(inside[-1]["x"] + inside[-1]["width"] - (viewport["x"] + viewport["width"])) < 1.5, (inside, viewport)
    assert abs(inside[1]["x"] - inside[0]["x"] - inside[0]["width"] - 10) < 1
    ARTIFACTS.mkdir(exist_ok=True)
    row.screenshot(path=str(ARTIFACTS / f"carousel-{width}.png"))
    page.get_by_test_id("sports-carousel").screenshot(path=str(ARTIFACTS / f"carousel-sports-{width}.png"))
