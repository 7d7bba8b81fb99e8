"""Sportsbook (/sbapi): events per language, the SPA's ML0 rules, slips, coupons and tokens."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import msgspec
import pytest

from contracts.sports import Betslip, BetsResponse, Coupon, RemoteAuth, SportEvent, SportEvents, SportsbookBonus
from tests.support.platform import PlatformClient

EVENTS = "/sbapi/sports/events"
ORDER = {"Soccer": ["Tie", "Home", "Away"], "Basketball": ["Home", "Away"], "Tennis": ["Home", "Away"]}


def events(platform: PlatformClient, lang: str = "es", **query: str) -> SportEvents:
    response = platform.get(EVENTS, params={"lang": lang, **query})
    assert response.status_code == 200
    return msgspec.json.decode(response.content, type=SportEvents)


def main_market_outcomes(event: SportEvent) -> list[str] | None:
    main = next((m for m in event.markets if m.marketType._id == "ML0"), None)
    return None if main is None else [s.outcomeType for s in main.selections]


def shown_by_the_spa(event: SportEvent) -> bool:
    """Only ML0 events; soccer needs Tie, Home, Away in that order, others Home, Away."""
    return main_market_outcomes(event) == ORDER[event.sportName]


def pick(platform: PlatformClient, n: int = 1) -> list[dict[str, Any]]:
    """The Home selection of the first `n` events the SPA shows."""
    shown = [e for e in events(platform).events if shown_by_the_spa(e)][:n]
    chosen = []
    for event in shown:
        main = next(m for m in event.markets if m.marketType._id == "ML0")
        home = next(s for s in main.selections if s.outcomeType == "Home")
        chosen.append({"eventId": event._id, "selectionId": home._id, "odds": home.trueOdds})
    return chosen


def cash(platform: PlatformClient) -> Decimal:
    summary = platform.client.get("/_sandbox/sites/aurora/players/demo1").json()
    return Decimal(summary["wallets"]["INR"]["cash"])


def test_events_combine_soccer_basketball_and_tennis_with_a_total(platform: PlatformClient) -> None:
    listed = events(platform)

    assert listed.totalCount == len(listed.events)
    for sport in ORDER:
        assert sum(1 for e in listed.events if e.sportName == sport and shown_by_the_spa(e)) >= 6


def test_events_start_in_the_coming_days_in_utc(platform: PlatformClient) -> None:
    now = dt.datetime.now(dt.UTC)

    for event in events(platform).events:
        start = dt.datetime.fromisoformat(event.startEventDate.replace("Z", "+00:00"))
        assert event.startEventDate.endswith("Z")
        assert now < start < now + dt.timedelta(days=5)
        assert all(m.startDate == event.startEventDate for m in event.markets)


def test_events_carry_ml0_and_other_markets(platform: PlatformClient) -> None:
    listed = events(platform).events
    soccer = next(e for e in listed if e.sportName == "Soccer" and shown_by_the_spa(e))

    assert {m.marketType._id for m in soccer.markets} >= {"ML0", "OU2.5", "HC-1"}
    for event in listed:
        for market in event.markets:
            assert market.homeTeam and market.awayTeam
            assert all(s._id and s.trueOdds > 1 and s.displayOdds == f"{s.trueOdds:.2f}" for s in market.selections)


def test_complete_events_list_their_main_selections_in_the_spa_order(platform: PlatformClient) -> None:
    for event in events(platform).events:
        outcomes = main_market_outcomes(event)
        if outcomes is not None and set(outcomes) == set(ORDER[event.sportName]):
            assert outcomes == ORDER[event.sportName], event._id


def test_some_events_are_incomplete_so_the_spa_filters_them(platform: PlatformClient) -> None:
    listed = events(platform).events

    soccer_without_tie = [e for e in listed if e.sportName == "Soccer" and main_market_outcomes(e) == ["Home", "Away"]]
    basketball_without_ml0 = [e for e in listed if e.sportName == "Basketball" and main_market_outcomes(e) is None]
    assert soccer_without_tie and basketball_without_ml0
    assert not any(shown_by_the_spa(e) for e in soccer_without_tie + basketball_without_ml0)


def test_lang_changes_names_but_not_ids(platform: PlatformClient) -> None:
    spanish, english = events(platform, "es").events, events(platform, "en").events

    assert [e._id for e in spanish] == [e._id for e in english]
    leagues = {(s.leagueName, e.leagueName) for s, e in zip(spanish, english, strict=True)}
    assert ("Liga Profesional Argentina", "Argentine Primera División") in leagues
    assert any(s.leagueName != e.leagueName for s, e in zip(spanish, english, strict=True) if s.sportName == "Tennis")


def test_the_sport_query_narrows_the_list(platform: PlatformClient) -> None:
    tennis = events(platform, sport="tennis")

    assert tennis.events and {e.sportName for e in tennis.events} == {"Tennis"}
    assert tennis.totalCount == len(tennis.events)


def test_an_unsupported_language_is_a_bad_request(platform: PlatformClient) -> None:
    assert platform.get(EVENTS, params={"lang": "fr"}).status_code == 400


def test_the_sports_list_counts_events_per_sport(platform: PlatformClient) -> None:
    listed = events(platform).events

    sports = platform.get("/sbapi/sports/sports", params={"lang": "pt"}).json()["sports"]

    assert {s["_id"]: s["eventCount"] for s in sports} == {
        sport: sum(1 for e in listed if e.sportName == sport) for sport in ORDER
    }
    assert {s["name"] for s in sports} == {"Futebol", "Basquete", "Tênis"}


def test_a_betslip_multiplies_the_current_odds(player: PlatformClient) -> None:
    chosen = pick(player, 2)
    sent = [{**c, "odds": 99.0} for c in chosen]

    slip = msgspec.json.decode(
        player.post("/sbapi/bets/betslip", {"selections": sent, "stake": 100}).content, type=Betslip
    )

    expected = round(chosen[0]["odds"] * chosen[1]["odds"], 2)
    assert slip.success and slip.totalOdds == pytest.approx(expected, abs=0.01)
    assert slip.potentialWin == pytest.approx(100 * slip.totalOdds, abs=0.01)
    assert [s.odds for s in slip.selections] == [c["odds"] for c in chosen]


def test_an_anonymous_betslip_needs_no_session(platform: PlatformClient) -> None:
    body = platform.post("/sbapi/bets/anonymousbet", {"selections": pick(platform)}).json()

    assert body["success"] is True and body["potentialWin"] == 0


def test_an_unknown_selection_is_refused(platform: PlatformClient) -> None:
    selection = {**pick(platform)[0], "selectionId": "no-such-selection"}

    body = platform.post("/sbapi/bets/anonymousbet", {"selections": [selection], "stake": 10}).json()

    assert body["success"] is False and body["code"] == "SELECTION_NOT_FOUND"


def test_a_coupon_debits_the_stake_and_is_listed(player: PlatformClient) -> None:
    before = cash(player)

    placed = msgspec.json.decode(
        player.post("/sbapi/bets/coupon", {"selections": pick(player), "stake": 150}).content, type=Coupon
    )

    assert placed.success and placed.couponId and placed.stake == 150 and placed.status == "Open"
    assert cash(player) == before - 150
    ledger = player.client.get("/_sandbox/sites/aurora/ledger").json()
    assert ledger[-1] == {
        "login": "demo1",
        "kind": "bet",
        "amount": "-150.00",
        "balanceAfter": str(before - 150),
        "reference": placed.couponId,
    }
    bets = msgspec.json.decode(player.post("/sbapi/bets/getbets", {}).content, type=BetsResponse).bets
    assert [b.couponId for b in bets] == [placed.couponId]


@pytest.mark.parametrize(
    ("stake", "code"), [(5000.01, "INSUFFICIENT_FUNDS"), (0, "INVALID_STAKE"), (-10, "INVALID_STAKE")]
)
def test_a_stake_over_the_cash_or_not_positive_is_refused(player: PlatformClient, stake: float, code: str) -> None:
    before = cash(player)

    body = player.post("/sbapi/bets/coupon", {"selections": pick(player), "stake": stake}).json()

    assert body["success"] is False and body["code"] == code
    assert cash(player) == before
    assert player.post("/sbapi/bets/getbets", {}).json()["bets"] == []


def test_the_whole_cash_can_be_staked(player: PlatformClient) -> None:
    body = player.post("/sbapi/bets/coupon", {"selections": pick(player), "stake": 5000}).json()

    assert body["success"] is True
    assert cash(player) == 0


def test_the_sportsbook_bonus_shows_the_bonus_and_a_welcome_free_bet(player: PlatformClient) -> None:
    before = msgspec.json.decode(player.post("/sbapi/bets/bonus", {}).content, type=SportsbookBonus)
    player.post("/sbapi/bets/coupon", {"selections": pick(player), "stake": 10})
    after = msgspec.json.decode(player.post("/sbapi/bets/bonus", {}).content, type=SportsbookBonus)

    assert (before.freeBets, before.bonusBalance) == (1, 250.0)
    assert after.freeBets == 0


def test_the_sportsbook_token_is_fresh_and_never_the_session(player: PlatformClient) -> None:
    first = msgspec.json.decode(player.post("/sbapi/auth/remote", {}).content, type=RemoteAuth)
    second = msgspec.json.decode(player.post("/sbapi/auth/remote", {}).content, type=RemoteAuth)

    assert first.token and second.token and first.token != second.token
    assert player.session not in (first.token, second.token)


def test_a_ticket_is_mailed_for_a_placed_coupon_only(player: PlatformClient) -> None:
    coupon = player.post("/sbapi/bets/coupon", {"selections": pick(player), "stake": 10}).json()

    sent = player.post("/rest/bet/email/ticket", {"couponId": coupon["couponId"]}).json()
    unknown = player.post("/rest/bet/email/ticket", {"couponId": "CPN0"}).json()
    bad_email = player.post("/rest/bet/email/ticket", {"couponId": coupon["couponId"], "email": "nope"}).json()

    assert sent["success"] is True and "demo1@example.com" in sent["description"]
    assert unknown["success"] is False
    assert bad_email["description"] == "Enter valid email"
