"""Content (/capi): Strapi lists, their filters and paging, and the images they point at."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from contracts import content
from contracts.catalogue import ROUTES_BY_NAME
from sandbox import content as sandbox_content
from sandbox.state import Site
from tests.support.platform import PlatformClient

COLLECTIONS = (
    "homeBanners",
    "lobbyBanners",
    "footerBanners",
    "eventBanners",
    "pokerBanners",
    "gamesLists",
    "newReels",
    "headerLinks",
    "faqs",
)
BANNERS = ("homeBanners", "lobbyBanners", "footerBanners", "eventBanners", "pokerBanners")
TITLED = {"lobbyBanners": "title", "footerBanners": "title", "eventBanners": "eventName"}
HEADER_LINKS = {
    1: "/home",
    14: "/poker",
    4: "/games/livedealer",
    3: "/games/sports",
    2: "/games/slots",
    5: "/games/horseracing",
    16: "/DropWin",
    15: "/games/Blackjack",
    6: "/promotions",
    7: "/contactus",
    8: "/mybalance",
    17: "/spinwheel",
    18: "/blackjackleague",
    19: "/home",
    20: "/ReelD",
    21: "/",
    22: "/games/flywin",
    23: "/HolidayRush",
    33: "/takeMeFishin",
}


def path(name: str) -> str:
    return ROUTES_BY_NAME[name].path


def eq(**filters: str) -> dict[str, str]:
    return {f"filters[{field}][$eq]": value for field, value in filters.items()}


def everything(platform: PlatformClient, name: str) -> list[dict[str, Any]]:
    body = platform.get(path(name), params={"pagination[pageSize]": "100"}).json()
    assert body["meta"]["pagination"]["total"] == len(body["data"])
    return list(body["data"])


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_collection_decodes_as_its_contract_strapi_list(platform: PlatformClient, name: str) -> None:
    response = platform.get(path(name))

    assert response.status_code == 200
    decoded = msgspec.json.decode(response.content, type=ROUTES_BY_NAME[name].response)
    assert decoded.data
    assert decoded.meta.pagination.total >= len(decoded.data)


@pytest.mark.parametrize("name", BANNERS)
def test_banners_come_in_language_groups_es_en_pt_each_with_active_and_inactive(
    platform: PlatformClient, name: str
) -> None:
    banners = everything(platform, name)

    locales = [b["locale"] for b in banners]
    assert sorted(set(locales), key=locales.index) == list(content.BANNER_GROUP_ORDER)
    for locale in content.LOCALES:
        assert {b["status"] for b in banners if b["locale"] == locale} == {"active", "inactive"}


@pytest.mark.parametrize("name", BANNERS)
def test_locale_and_status_filters_keep_only_matching_banners(platform: PlatformClient, name: str) -> None:
    every = everything(platform, name)

    body = platform.get(path(name), params=eq(locale="pt", status="active")).json()

    expected = [b for b in every if b["locale"] == "pt" and b["status"] == "active"]
    assert body["data"] == expected
    assert body["meta"]["pagination"]["total"] == len(expected)


@pytest.mark.parametrize("name", TITLED)
def test_banner_titles_name_the_site_and_are_translated(sandbox: Any, platform: PlatformClient, name: str) -> None:
    field = TITLED[name]
    aurora = platform.get(path(name), params=eq(status="active")).json()["data"]
    pampa = PlatformClient(sandbox, "pampa").get(path(name), params=eq(status="active")).json()["data"]

    assert all("Aurora Casino" in b[field] for b in aurora)
    assert all("Pampa Bet" in b[field] for b in pampa)
    spanish = {b[field] for b in aurora if b["locale"] == "es"}
    english = {b[field] for b in aurora if b["locale"] == "en"}
    assert spanish and english and spanish.isdisjoint(english)


def test_home_banner_images_differ_per_site(sandbox: Any, platform: PlatformClient) -> None:
    aurora = {b["heroBanner"]["url"] for b in everything(platform, "homeBanners")}
    pampa = {b["heroBanner"]["url"] for b in everything(PlatformClient(sandbox, "pampa"), "homeBanners")}

    assert aurora.isdisjoint(pampa)


@pytest.mark.parametrize("provider", ["rubyplay", "mancala", "pragmaticplay"])
def test_each_provider_list_has_twenty_games_some_marked_new(platform: PlatformClient, provider: str) -> None:
    query = eq(locale="es", status="active", gameProviderName=provider)

    body = msgspec.json.decode(platform.get(path("gamesLists"), params=query).content, type=content.GamesLists)

    games = body.data[0].gamesList
    assert body.data[0].gameProviderName == provider
    assert len(games) >= 20
    assert any(g.status == 1 for g in games) and any(g.status == 0 for g in games)
    assert len({g.gameId for g in games}) == len(games)
    assert all(g.gameName and g.name and g.Id and g.media and g.mediaPP and g.Images for g in games)
    assert all(not g.gameName.startswith("Game ") for g in games)


@pytest.mark.parametrize("provider", ["habanero", "endorphina", "vibra", "evolution", "pragmaticplaylivecasino"])
def test_the_other_studios_of_the_provider_chips_have_lists_of_their_own(
    platform: PlatformClient, provider: str
) -> None:
    query = eq(locale="pt", status="active", gameProviderName=provider)

    lists = msgspec.json.decode(platform.get(path("gamesLists"), params=query).content, type=content.GamesLists).data

    own = [entry for entry in lists if entry.category is None]
    assert len(own) == 1 and lists[0] is own[0], "a provider filter's data[0] is its own list"
    assert len(own[0].gamesList) >= 6
    assert {g.provider for g in own[0].gamesList} == {provider}


def test_status_filter_hides_a_retired_provider_list(platform: PlatformClient) -> None:
    every = platform.get(path("gamesLists"), params=eq(gameProviderName="mancala", locale="es")).json()["data"]
    active = platform.get(path("gamesLists"), params=eq(gameProviderName="mancala", status="active")).json()["data"]

    assert {e["status"] for e in every} == {"active", "inactive"}
    assert {e["status"] for e in active} == {"active"}


@pytest.mark.parametrize("category", ["dropsAndWins", "newpragmatic", "Hoiliday", "takeMeFishin", "Events", "evogames"])
def test_named_categories_are_found_by_category_filter(platform: PlatformClient, category: str) -> None:
    body = platform.get(path("gamesLists"), params=eq(category=category, locale="en", status="active")).json()

    assert len(body["data"]) == 1
    assert body["data"][0]["category"] == category
    assert body["data"][0]["gamesList"]


def test_filters_on_absent_or_nested_fields_match_nothing(platform: PlatformClient) -> None:
    absent = platform.get(path("homeBanners"), params=eq(noSuchField="x")).json()
    nested = platform.get(path("homeBanners"), params={"filters[heroBanner][url][$eq]": "x"}).json()

    assert absent["data"] == [] and absent["meta"]["pagination"]["total"] == 0
    assert nested["data"] == []


def test_an_unknown_filter_operator_is_a_bad_request(platform: PlatformClient) -> None:
    response = platform.get(path("homeBanners"), params={"filters[locale][$like]": "es"})

    assert response.status_code == 400
    assert response.json()["success"] is False


def test_pagination_pages_through_a_collection(platform: PlatformClient) -> None:
    every = everything(platform, "gamesLists")

    body = platform.get(path("gamesLists"), params={"pagination[page]": "2", "pagination[pageSize]": "5"}).json()

    assert [e["id"] for e in body["data"]] == [e["id"] for e in every[5:10]]
    assert body["meta"]["pagination"] == {
        "page": 2,
        "pageSize": 5,
        "pageCount": math.ceil(len(every) / 5),
        "total": len(every),
    }


def test_a_bad_page_number_is_a_bad_request(platform: PlatformClient) -> None:
    assert platform.get(path("gamesLists"), params={"pagination[page]": "zero"}).status_code == 400


def test_reel_deals_are_translated_per_locale(platform: PlatformClient) -> None:
    deals = msgspec.json.decode(platform.get(path("newReels")).content, type=content.ReelDealsList).data

    assert {d.locale for d in deals} == set(content.LOCALES)
    assert all(d.prizeDrop and d.Tornament for d in deals)
    names = {d.locale: d.Tornament[0].name for d in deals}
    assert len(set(names.values())) == 3


def test_header_links_carry_the_spec_ids_and_urls(platform: PlatformClient) -> None:
    links = msgspec.json.decode(platform.get(path("headerLinks")).content, type=content.HeaderLinks).data

    assert {link.id: link.url for link in links} == HEADER_LINKS
    assert all(set(link.translatedNames) == {"es", "pt"} and link.name and link.icon for link in links)
    assert next(link for link in links if link.id == 6).translatedNames == {"es": "Promociones", "pt": "Promoções"}


def test_faqs_cover_every_topic_in_each_language_in_the_skins_words(platform: PlatformClient) -> None:
    for locale in content.LOCALES:
        reply = platform.get(path("faqs"), params=eq(locale=locale, status="active"))
        faqs = msgspec.json.decode(reply.content, type=content.Faqs).data
        assert {faq.topic for faq in faqs} == set(content.FAQ_TOPICS)
        assert {faq.locale for faq in faqs} == {locale}
        assert [faq.order for faq in faqs] == sorted(faq.order for faq in faqs)
        assert any("Aurora Casino" in faq.answer for faq in faqs)
    questions = {
        locale: platform.get(path("faqs"), params=eq(locale=locale)).json()["data"][0]["question"]
        for locale in content.LOCALES
    }
    assert len(set(questions.values())) == 3, questions


def uploads(value: Any) -> Iterator[str]:
    if isinstance(value, str) and value.startswith("/capi/uploads/"):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from uploads(item)
    elif isinstance(value, list):
        for item in value:
            yield from uploads(item)


def test_every_content_url_resolves_to_an_svg_image(platform: PlatformClient) -> None:
    urls = {url for name in COLLECTIONS for url in uploads(everything(platform, name))}

    assert len(urls) > 100
    for url in sorted(urls):
        response = platform.get(url)
        assert response.status_code == 200, url
        assert response.headers["content-type"].startswith("image/svg+xml"), url
        assert "max-age=" in response.headers["cache-control"]
        assert ET.fromstring(response.content).tag == "{http://www.w3.org/2000/svg}svg"


def test_images_are_drawn_from_their_names(platform: PlatformClient) -> None:
    tile = platform.get("/capi/uploads/game-pragmaticplay-gates-of-olympus.svg")
    again = platform.get("/capi/uploads/game-pragmaticplay-gates-of-olympus.svg")
    banner = platform.get("/capi/uploads/hero-aurora-en-1.svg")

    assert tile.content == again.content
    assert title_of(tile.content) == "Gates of Olympus · Pragmatic Play"
    assert title_of(banner.content) == "Aurora Casino: 100% welcome bonus"
    assert "AURORA CASINO" in banner.text


@pytest.mark.parametrize(
    ("file", "title"),
    [
        ("live-evolution.svg", "Evolution"),
        ("live-ezugi.svg", "Ezugi"),
        ("pay-phonepe.svg", "PhonePe"),
        ("pay-scan.svg", "Scan and pay"),
    ],
)
def test_live_casino_tiles_and_payment_logos_are_uploads_too(platform: PlatformClient, file: str, title: str) -> None:
    answer = platform.get(f"/capi/uploads/{file}")

    assert answer.status_code == 200
    assert title_of(answer.content) == title


def title_of(svg: bytes) -> str | None:
    return ET.fromstring(svg).findtext("{http://www.w3.org/2000/svg}title")


@pytest.mark.parametrize(
    "file",
    [
        "nope.png",
        "game-nosuchprovider-gates-of-olympus.svg",
        "hero-aurora-es-99.svg",
        "hero-nosite-es-1.svg",
        "icon-nothing.svg",
        "pay-nothing.svg",
        "live-nothing.svg",
    ],
)
def test_an_unknown_media_file_is_not_found(platform: PlatformClient, file: str) -> None:
    assert platform.get(f"/capi/uploads/{file}").status_code == 404


def test_the_same_seed_builds_the_same_content() -> None:
    site = Site("aurora", "Aurora Casino", "INR", "Bs.", "AURORA")

    first = sandbox_content.seed_content(site, random.Random(7))
    second = sandbox_content.seed_content(site, random.Random(7))

    assert msgspec.json.encode(first) == msgspec.json.encode(second)
