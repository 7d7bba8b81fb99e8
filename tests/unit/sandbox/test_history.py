"""Histories (/api/history): transactions by date and type, game rounds as "Bs. " text."""

from __future__ import annotations

import datetime as dt
import itertools
import re
import time
from typing import Any

import pytest

from tests.support.platform import PlatformClient


def today_utc() -> dt.date:
    """Asked at each use: a suite running across midnight (UTC) must not ask for yesterday."""
    return dt.datetime.now(dt.UTC).date()


NO_INPUT = "failed to get transaction history with given input"
MONEY_TEXT = re.compile(r"^Bs\. \d{1,3}(,\d{3})*\.\d{2}$")
DEPOSIT = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}
CASHOUT = {"paymentMethod": "transact", "amount": 700}


def day(days_back: int) -> str:
    """A request date (DD-MM-YYYY, UTC day) `days_back` days before today."""
    return (today_utc() - dt.timedelta(days=days_back)).strftime("%d-%m-%Y")


def transactions(client: PlatformClient, start: str, end: str, kinds: str = "Deposits,Cashout") -> dict[str, Any]:
    body = {"currency": "ARS", "startDate": start, "endDate": end, "limit": 100, "index": 0, "type": kinds}
    return dict(client.post("/api/history/transactionCheck", body).json())


def games(client: PlatformClient, start: str, end: str, path: str = "game") -> dict[str, Any]:
    body = {"currency": "ARS", "startDate": start, "endDate": end, "limit": 10000000, "index": 0}
    return dict(client.post(f"/api/history/{path}", body).json())


def test_a_new_deposit_and_cashout_show_today_and_the_deposit_turns_approved(player: PlatformClient) -> None:
    seque_no = player.post("/api/cashier/buy", DEPOSIT).json()["seque_no"]
    cashout_id = player.post("/api/cashier/cashout", CASHOUT).json()["cashoutId"]
    today = transactions(player, day(0), day(0))
    assert today["success"] is True
    assert [(d["seque_no"], d["cashAmount"], d["status"]) for d in today["deposits"]] == [(seque_no, 1000.0, "Pending")]
    assert [(c["cashoutId"], c["amount"], c["status"]) for c in today["cashouts"]] == [(cashout_id, 700.0, "Pending")]
    assert today["deposits"][0]["startDate"].startswith(today_utc().isoformat())
    assert today["cashouts"][0]["createdOn"].endswith("Z")
    time.sleep(0.25)
    assert transactions(player, day(0), day(0))["deposits"][0]["status"] == "Approved"


def test_a_cancelled_cashout_shows_its_cancelled_amount(player: PlatformClient) -> None:
    cashout_id = player.post("/api/cashier/cashout", CASHOUT).json()["cashoutId"]
    player.post("/api/cashier/cancelWithdrawRequest", {"cashoutId": cashout_id})
    row = transactions(player, day(0), day(0), "Cashout")["cashouts"][0]
    assert (row["status"], row["cancelledAmount"], row["paidAmount"]) == ("Cancelled", 700.0, 0.0)


def test_the_seeded_week_holds_a_locked_deposit_and_paid_cashouts(player: PlatformClient) -> None:
    week = transactions(player, day(7), day(0))
    statuses = [d["status"] for d in week["deposits"]]
    assert "Locked" in statuses and "Approved" in statuses
    assert "Paid" in [c["status"] for c in week["cashouts"]]
    starts = [d["startDate"] for d in week["deposits"]]
    assert starts == sorted(starts, reverse=True)


def test_the_date_range_is_inclusive_and_filters_rows(player: PlatformClient) -> None:
    month = transactions(player, day(30), day(0))
    assert transactions(player, day(400), day(300)) == {**month, "deposits": [], "cashouts": []}
    by_day = [transactions(player, day(n), day(n)) for n in range(31)]
    assert sum(len(d["deposits"]) for d in by_day) == len(month["deposits"]) == 5
    assert sum(len(d["cashouts"]) for d in by_day) == len(month["cashouts"]) == 3
    for n, one_day in enumerate(by_day):
        that_day = (today_utc() - dt.timedelta(days=n)).isoformat()
        assert all(d["startDate"].startswith(that_day) for d in one_day["deposits"])


def test_the_type_filter_keeps_only_the_checked_tables(player: PlatformClient) -> None:
    deposits_only = transactions(player, day(7), day(0), "Deposits")
    assert deposits_only["deposits"] and deposits_only["cashouts"] == []
    cashouts_only = transactions(player, day(7), day(0), "Cashout")
    assert cashouts_only["cashouts"] and cashouts_only["deposits"] == []


@pytest.mark.parametrize(
    ("start", "end", "kinds"),
    [
        (day(0), day(1), "Deposits,Cashout"),
        ("31-02-2024", "01-03-2024", "Deposits"),
        ("2024-01-01", day(0), "Deposits"),
        (day(3), day(0), ""),
        (day(3), day(0), "Bets"),
    ],
)
def test_wrong_input_answers_the_no_history_description(
    player: PlatformClient, start: str, end: str, kinds: str
) -> None:
    reply = transactions(player, start, end, kinds)
    assert reply["success"] is False
    assert reply["description"] == NO_INPUT


def test_game_history_values_are_bs_text_oldest_first(player: PlatformClient) -> None:
    history = games(player, day(3), day(0))
    values = history["values"]
    assert history["success"] is True and history["total"] == len(values) == 24
    money = ("initialBalance", "bet", "buyIn", "payouts", "win", "closingBalance")
    assert all(MONEY_TEXT.match(v[field]) for v in values for field in money), values[0]
    assert any("," in v["initialBalance"] for v in values)
    assert [v["from"] for v in values] == sorted(v["from"] for v in values)
    # Each round starts with the balance the previous one closed with.
    assert all(a["closingBalance"] == b["initialBalance"] for a, b in itertools.pairwise(values))


def test_game_history_filters_by_day(player: PlatformClient) -> None:
    per_day = [games(player, day(n), day(n)) for n in range(4)]
    assert sum(d["total"] for d in per_day) == 24
    for n, one_day in enumerate(per_day):
        assert all(v["from"].startswith((today_utc() - dt.timedelta(days=n)).isoformat()) for v in one_day["values"])
    assert games(player, day(90), day(60)) == {**per_day[0], "total": 0, "values": []}
    assert games(player, day(0), day(2))["success"] is False


def test_remote_games_are_the_same_rounds(player: PlatformClient) -> None:
    rounds = games(player, day(3), day(0))["values"]
    remote = games(player, day(3), day(0), "remoteGames")["values"]
    assert [(r["gameName"], r["date"]) for r in remote] == [(v["name"], v["from"]) for v in rounds]
    assert {r["provider"] for r in remote} <= {"pragmaticplay", "rubyplay", "mancala"}
