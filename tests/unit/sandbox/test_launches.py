"""Game launches: each provider's shape, fresh tokens, no session id, disabled providers, demo page."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec
import pytest

from contracts.catalogue import ROUTES_BY_NAME
from sandbox.app import SandboxSettings
from tests.support.platform import PlatformClient, sandbox_client

BASE = "http://testserver.local"
GAME = {"gameId": "vs20olympgate", "provider": "pragmaticplay"}


@dataclass(frozen=True)
class Launch:
    route: str
    provider: str
    """The site's provider switch that gates it."""
    url_field: str | None
    params: dict[str, str]
    body: dict[str, Any] | None = None


LAUNCHES = (
    Launch("ezugiLaunch", "ezugi", "EZUGI_GAME_URL", {}),
    Launch("habaneroLaunch", "habanero", "gameURL", {"gameId": "hb-egyptian-dreams"}),
    Launch("endorphinaLaunch", "endorphina", "gameURL", {"gameId": "endorphina-minotaurus"}),
    Launch("btiLaunch", "bti", None, {}),
    Launch("pragmaticLaunch", "pragmaticplay", "gameURL", {"gameId": "vs20olympgate"}, GAME),
    Launch("mancalaLaunch", "mancala", "IframeUrl", {"Id": "1001"}, {"gameId": "1001", "provider": "mancala"}),
    Launch(
        "rubyPlayLaunch", "rubyplay", "URL", {"gameId": "ruby-book"}, {"gameId": "ruby-book", "provider": "rubyplay"}
    ),
    Launch("vivoLaunch", "vivogaming", "menUrl", {}, {"provider": "vivogaming"}),
    Launch("vibraLaunch", "vibra", "gameUrl", {}, {"gameId": "vb-rocketrush", "provider": "vibra"}),
    Launch("genericLaunch", "evenbetpoker", "gameUrl", {}, {"gameMode": "", "gameId": "", "provider": "evenBet"}),
    Launch("mrGameURL", "pragmaticplay", "gameUrl", {}, GAME),
    Launch("mPlayGameURL", "pragmaticplay", "gameUrl", {}, {**GAME, "lang": "pt"}),
)
GENERIC = {"vibraLaunch", "genericLaunch", "mrGameURL", "mPlayGameURL"}


def launch(client: PlatformClient, spec: Launch, session: str | None = None) -> Any:
    route = ROUTES_BY_NAME[spec.route]
    path = route.upstream_path(spec.params, session or client.session)
    return client.get(path) if route.method == "GET" else client.post(path, spec.body or {})


def disable(client: PlatformClient, provider: str) -> None:
    response = client.client.put(f"/_sandbox/sites/aurora/providers/{provider}", json={"enabled": False})
    assert response.status_code == 200


def ids(spec: Launch) -> str:
    return spec.route


@pytest.mark.parametrize("spec", LAUNCHES, ids=ids)
def test_each_launch_answers_in_its_providers_shape_without_the_session_id(
    player: PlatformClient, spec: Launch
) -> None:
    response = launch(player, spec)

    assert response.status_code == 200
    assert player.session and player.session not in response.text
    answer = msgspec.json.decode(response.content, type=ROUTES_BY_NAME[spec.route].response)
    assert answer.success is True
    if spec.url_field:
        assert getattr(answer, spec.url_field).startswith(f"{BASE}/_sandbox/game/")
    if spec.route in GENERIC:
        assert answer.status == 200


def test_ezugi_carries_url_token_and_operator(player: PlatformClient) -> None:
    body = launch(player, LAUNCHES[0]).json()

    assert body["EZUGI_TOKEN"] and body["EZUGI_OPERATOR_ID"].isdigit()


def test_vivo_carries_the_live_session_data(player: PlatformClient) -> None:
    body = launch(player, next(s for s in LAUNCHES if s.route == "vivoLaunch")).json()

    assert body["token"] and body["operatorId"].isdigit() and body["serverId"].isdigit()


def test_bti_carries_a_token_and_the_players_cash(player: PlatformClient) -> None:
    body = launch(player, next(s for s in LAUNCHES if s.route == "btiLaunch")).json()

    assert body["token"] and body["balance"] == 5000.0


def test_tokens_are_fresh_per_launch(player: PlatformClient) -> None:
    spec = next(s for s in LAUNCHES if s.route == "pragmaticLaunch")

    first, second = (launch(player, spec).json()["gameURL"] for _ in range(2))

    assert query(first)["token"] != query(second)["token"]


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_the_sports_game_url_carries_a_lang_for_the_spa_to_rewrite(player: PlatformClient) -> None:
    body = launch(player, next(s for s in LAUNCHES if s.route == "genericLaunch")).json()

    assert body["status"] == 200
    assert "/_sandbox/game/evenbetpoker/" in body["gameUrl"]
    assert query(body["gameUrl"])["lang"] == "en"


def test_mr_and_m_play_urls_follow_the_requested_language(player: PlatformClient) -> None:
    desktop = launch(player, next(s for s in LAUNCHES if s.route == "mrGameURL")).json()["gameUrl"]
    mobile = launch(player, next(s for s in LAUNCHES if s.route == "mPlayGameURL")).json()["gameUrl"]

    assert query(desktop)["lang"] == "es" and query(mobile)["lang"] == "pt"
    assert query(mobile)["name"] == "Gates of Olympus"


def path_session_launches() -> Iterator[Launch]:
    return (s for s in LAUNCHES if ROUTES_BY_NAME[s.route].carries_session_in_path)


@pytest.mark.parametrize("spec", list(path_session_launches()), ids=ids)
def test_a_session_in_the_path_is_enough(player: PlatformClient, spec: Launch) -> None:
    session = player.session
    player.session = None  # no wsession header: only the path segment names the player

    assert launch(player, spec, session).json()["success"] is True
    assert launch(player, spec, "no-such-session").json()["code"] == "SESSION_EXPIRED"


@pytest.mark.parametrize("spec", [s for s in LAUNCHES if s.route not in GENERIC], ids=ids)
def test_a_disabled_provider_is_refused(player: PlatformClient, spec: Launch) -> None:
    disable(player, spec.provider)

    body = launch(player, spec).json()

    assert body["success"] is False and body["description"] == "Provider disabled"


@pytest.mark.parametrize("spec", [s for s in LAUNCHES if s.route in GENERIC], ids=ids)
def test_a_generic_launch_of_a_disabled_provider_says_403_in_its_body(player: PlatformClient, spec: Launch) -> None:
    disable(player, spec.provider)

    response = launch(player, spec)

    assert response.status_code == 200
    assert response.json()["status"] == 403 and response.json()["success"] is False
    assert response.json()["gameUrl"] is None


def test_a_generic_launch_of_an_unknown_provider_says_404(player: PlatformClient) -> None:
    body = player.post("/rest/game/launch", {"gameMode": "real_play", "gameId": "x", "provider": "nobody"}).json()

    assert body["status"] == 404 and body["success"] is False


def test_the_demo_page_is_a_game_page_with_a_truncated_token(player: PlatformClient) -> None:
    url = launch(player, next(s for s in LAUNCHES if s.route == "mancalaLaunch")).json()["IframeUrl"]
    token = query(url)["token"]

    page = player.client.get(url.removeprefix(BASE))

    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<title>Aztec Gold · Mancala Gaming</title>" in page.text
    assert 'class="reel"' in page.text and "<button" in page.text
    assert token[:6] in page.text and token not in page.text
    assert player.session and player.session not in page.text


def test_the_demo_page_escapes_what_it_shows(sandbox: Any) -> None:
    page = sandbox.get("/_sandbox/game/pragmaticplay/x", params={"name": "<script>alert(1)</script>"})

    assert "<script>alert(1)</script>" not in page.text and "&lt;script&gt;" in page.text


def test_launch_urls_use_the_public_url_when_set() -> None:
    with sandbox_client(SandboxSettings(public_url="https://sandbox.example/")) as client:
        platform = PlatformClient(client)
        platform.login()

        body = platform.post("/rest/pp/ppToken/vs20olympgate", GAME).json()

    assert body["gameURL"].startswith("https://sandbox.example/_sandbox/game/pragmaticplay/vs20olympgate?")
