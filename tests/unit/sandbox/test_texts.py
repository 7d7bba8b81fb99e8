"""The sandbox in every language of the product's list (contracts/locales.py): a texts file per
language with every key, and content, sports and demo pages served in each language."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.catalogue import ROUTES_BY_NAME
from contracts.locales import LOCALES
from sandbox import texts
from tests.support.platform import PlatformClient

BANNERS = ("homeBanners", "lobbyBanners", "footerBanners", "eventBanners", "pokerBanners")
REFERENCE = "es"


def test_every_language_of_the_list_has_a_texts_file_and_no_other_does() -> None:
    files = {path.stem for path in texts.TEXTS_DIR.glob("*.json")}

    assert files == set(LOCALES)


@pytest.mark.parametrize("lang", LOCALES)
def test_every_language_has_every_key_with_a_text(lang: str) -> None:
    reference, translated = texts.load(REFERENCE), texts.load(lang)

    assert sorted(set(reference) - set(translated)) == []
    assert sorted(set(translated) - set(reference)) == []
    assert [key for key, text in translated.items() if not isinstance(text, str) or not text.strip()] == []


def data(platform: PlatformClient, name: str, **params: str) -> list[dict[str, Any]]:
    response = platform.get(ROUTES_BY_NAME[name].path, params=params)
    assert response.status_code == 200
    return list(response.json()["data"])


@pytest.mark.parametrize("lang", LOCALES)
def test_the_sandbox_serves_its_content_in_every_language(platform: PlatformClient, lang: str) -> None:
    for name in BANNERS:
        banners = data(platform, name, **{"filters[locale][$eq]": lang, "pagination[pageSize]": "100"})
        assert banners, f"no {name} in {lang}"
        image = next(value["url"] for value in banners[0].values() if isinstance(value, dict) and "url" in value)
        assert platform.get(image).status_code == 200, image

    [reels] = data(platform, "newReels", **{"filters[locale][$eq]": lang})
    assert all(game["name"].startswith(texts.TEXTS[lang]["reels.tournament"]) for game in reels["Tornament"])

    links = data(platform, "headerLinks", **{"pagination[pageSize]": "100"})
    assert all(link["name"] if lang == "en" else link["translatedNames"][lang] for link in links)

    sports = platform.get(ROUTES_BY_NAME["sportsEvents"].path, params={"lang": lang})
    assert sports.status_code == 200 and sports.json()["events"]

    page = platform.get("/_sandbox/game/pragmaticplay/vs20olympgate", params={"lang": lang})
    assert f'lang="{lang}"' in page.text and texts.TEXTS[lang]["demoGame.spin"] in page.text
