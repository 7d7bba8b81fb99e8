"""The skins file: validated at start with messages that name the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.config import skins

EXAMPLE = Path(__file__).resolve().parents[4] / "deploy" / "skins.example.toml"


def test_the_example_file_maps_hosts_to_skins() -> None:
    configured = skins.load(EXAMPLE)
    assert configured.for_host("127.0.0.1:8000").id == "aurora"  # type: ignore[union-attr]
    assert configured.for_host("PAMPA.localhost:8000").id == "pampa"  # type: ignore[union-attr]
    assert configured.for_host("evil.example") is None
    pampa = configured.for_host("pampa.localhost")
    assert pampa is not None and pampa.branding.primary == "#2ec27e"


def test_the_public_part_never_shows_upstreams() -> None:
    public = skins.load(EXAMPLE).all[1].public()
    assert "upstreams" not in public and "127.0.0.1:8001" not in str(public)
    assert public["branding"]["operatorLine"]  # type: ignore[index]


def test_the_operator_line_comes_per_language() -> None:
    aurora, pampa = skins.load(EXAMPLE).all
    branding = aurora.public()["branding"]
    lines = branding["operatorLines"]  # type: ignore[index]
    assert set(lines) == {"es", "pt", "en"} and "Juega con responsabilidad" in lines["es"]
    # One text still, for SPAs that know no other: the default language's.
    assert branding["operatorLine"] == lines["es"]  # type: ignore[index]
    assert set(pampa.branding.operator_line) == {"es", "en"}
    builtin = skins.builtin("http://127.0.0.1:8001").all[0].branding.operator_line
    assert isinstance(builtin, dict) and builtin["pt"].startswith("Aurora Casino é")


def test_an_operator_line_of_one_text_still_serves_every_language() -> None:
    data = skins.read(EXAMPLE)
    data["skins"][0]["branding"]["operatorLine"] = "Operated by X"
    branding = skins.parse(data).all[0].public()["branding"]
    assert branding["operatorLine"] == "Operated by X" and branding["operatorLines"] == {}  # type: ignore[index]


def test_an_operator_line_without_the_default_language_is_refused() -> None:
    data = skins.read(EXAMPLE)
    data["skins"][1]["branding"]["operatorLine"] = {"en": "Operated by X"}
    with pytest.raises(skins.SkinsFileError, match=r"skins\[pampa\]\.branding\.operatorLine: no text in es"):
        skins.parse(data)


def test_the_spa_learns_the_sportsbook_and_poker_downloads() -> None:
    public = skins.load(EXAMPLE).all[0].public()
    assert str(public["sportsbookUrl"]).endswith("/bti/sportsbook")
    assert set(public["pokerDownloads"]) == {"android", "windows"}  # type: ignore[arg-type]


def test_the_spa_learns_the_origins_a_platform_link_may_lead_to() -> None:
    data = skins.read(EXAMPLE)
    data["skins"][0]["link_hosts"] = ["https://Sports.Provider.example/", "https://games.example:8443"]
    aurora, pampa = skins.parse(data).all
    assert aurora.public()["linkHosts"] == ["https://sports.provider.example", "https://games.example:8443"]
    assert pampa.public()["linkHosts"] == []  # none unless listed: links stay on the site
    assert all(skin.public()["linkHosts"] == [] for skin in skins.builtin("http://127.0.0.1:8001").all)


@pytest.mark.parametrize(
    "host",
    [
        "http://sports.example",
        "https://sports.example/book",
        "https://user@sports.example",
        "javascript:x",
        "sports.example",
    ],
)
def test_a_link_host_that_is_not_an_https_origin_stops_the_start(host: str) -> None:
    data = skins.read(EXAMPLE)
    data["skins"][1]["link_hosts"] = ["https://sports.example", host]
    with pytest.raises(skins.SkinsFileError, match=r"\$\.skins\[1\]\.link_hosts\[1\]"):
        skins.parse(data)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[[skins]]\nid='a'\n", "$.skins[0]"),
        (EXAMPLE.read_text().replace('currency = "INR"', 'currency = "rupees"'), "$.skins[0].currency"),
        (
            EXAMPLE.read_text().replace('api = "{sandbox}"', 'api = "ftp://x"', 1),
            "$.skins[0].upstreams.api",
        ),
        (EXAMPLE.read_text().replace('primary = "#f5b301"', 'primary = "gold"'), "$.skins[0].branding.primary"),
        (EXAMPLE.read_text().replace('hosts = ["pampa.localhost"]', 'hosts = ["localhost"]'), "hosts"),
        (EXAMPLE.read_text() + "\nunknown = 1\n", "unknown"),
        (EXAMPLE.read_text().replace("{ android =", "{ ios ="), "$.skins[0].poker_downloads"),
        ("this is = not toml [", "not valid TOML"),
    ],
)
def test_a_bad_file_is_refused_naming_the_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "skins.toml"
    path.write_text(text)
    with pytest.raises(skins.SkinsFileError) as error:
        skins.load(path)
    assert field in str(error.value) and str(path) in str(error.value)


def test_without_a_file_the_two_sandbox_sites_are_served_in_their_own_colours() -> None:
    builtin = skins.builtin("http://127.0.0.1:8001")
    assert [s.id for s in builtin.all] == ["aurora", "pampa"]
    assert builtin.upstream_origins() == {"http://127.0.0.1:8001"}
    aurora, pampa = builtin.all
    assert (aurora.site_id, aurora.currency_symbol) == ("aurora", "Bs.")
    assert (pampa.site_id, pampa.currency, pampa.currency_symbol) == ("pampa", "ARS", "$")
    assert aurora.branding.primary != pampa.branding.primary
    assert aurora.branding.background != pampa.branding.background


def test_the_second_sandbox_skin_answers_on_its_own_host_name() -> None:
    builtin = skins.builtin("http://127.0.0.1:8001")
    pampa = builtin.for_host("pampa.localhost:8000")
    aurora = builtin.for_host("127.0.0.1:8000")
    assert pampa is not None and pampa.id == "pampa"
    assert aurora is not None and aurora.id == "aurora"


def test_the_operator_switches_reach_the_spa_whole_and_typed() -> None:
    data = skins.read(EXAMPLE)
    data["skins"][0]["features"] = {"withdrawals": False}
    aurora, pampa = skins.parse(data).all
    # An unset switch is on, and the SPA always gets both.
    off = {"reality_check_minutes": None}  # no reality check unless the skin sets one
    assert aurora.public()["features"] == {"deposits": True, "withdrawals": False, **off}
    assert pampa.public()["features"] == {"deposits": True, "withdrawals": True, **off}
    data["skins"][0]["features"] = {"withdrawal": False}  # a misspelt switch stops the start
    with pytest.raises(skins.SkinsFileError, match="withdrawal"):
        skins.parse(data)
