"""Histories (cashier-account.md): deposits and cashouts, casino game rounds and the same
rounds as remote games, within a date range of DD-MM-YYYY days.

Days are UTC days, and dates in rows are ISO 8601 UTC instants: the spec names no time
zone for the platform, only that the SPA shows cashouts in local time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TypeVar

import msgspec

from contracts.history import (
    NO_HISTORY_DESCRIPTIONS,
    CashoutRow,
    DepositRow,
    GameHistoryRequest,
    GameHistoryResponse,
    GameHistoryRow,
    RemoteGame,
    RemoteGamesResponse,
    TransactionHistoryRequest,
    TransactionHistoryResponse,
)
from sandbox import content
from sandbox.cashier import iso_utc, settled
from sandbox.platform import Call, Registry, failure
from sandbox.state import CashoutRecord, DepositRecord, GameRound

routes = Registry()

T = TypeVar("T")
Row = TypeVar("Row")
TRANSACTION_INPUT_ERROR = NO_HISTORY_DESCRIPTIONS[1]
# The game history's failure text is not shown: written like the transaction one.
GAME_INPUT_ERROR = "failed to get game history with given input"
DEPOSITS, CASHOUT = "Deposits", "Cashout"
MONEY_PREFIX = "Bs. "
PROVIDERS: Mapping[str, str] = {
    game.name: provider
    for provider, games in (
        ("pragmaticplay", content.PRAGMATIC),
        ("rubyplay", content.RUBYPLAY),
        ("mancala", content.MANCALA),
    )
    for game in games
}


class Window(msgspec.Struct, frozen=True):
    """A range of whole UTC days, as [start, end) timestamps."""

    start: float
    end: float

    def holds(self, timestamp: float) -> bool:
        return self.start <= timestamp < self.end


def _request(call: Call, typ: type[T], error: str) -> T:
    try:
        return msgspec.convert(call.json(), typ)
    except msgspec.ValidationError:
        raise failure(error) from None


def _day(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%d-%m-%Y").replace(tzinfo=dt.UTC)


def _window(start: str, end: str, error: str) -> Window:
    """The days from `start` to `end`, both included; a start after the end is refused."""
    try:
        first, last = _day(start), _day(end)
    except ValueError:
        raise failure(error) from None
    if first > last:
        raise failure(error)
    return Window(first.timestamp(), (last + dt.timedelta(days=1)).timestamp())


def _page(rows: Sequence[Row], index: int, limit: int, error: str) -> list[Row]:
    if index < 0 or limit < 0:
        raise failure(error)
    return list(rows[index : index + limit])


def _kinds(joined: str) -> set[str]:
    """The comma-joined types; at least one, each Deposits or Cashout."""
    kinds = {part.strip() for part in joined.split(",") if part.strip()}
    if not kinds or not kinds <= {DEPOSITS, CASHOUT}:
        raise failure(TRANSACTION_INPUT_ERROR)
    return kinds


def _deposit_row(deposit: DepositRecord) -> DepositRow:
    return DepositRow(
        startDate=iso_utc(deposit.created),
        cashAmount=float(deposit.amount),
        bonus=0.0,
        status=deposit.history_status,
        seque_no=deposit.seque_no,
        paymentMethod=deposit.method,
    )


def _cashout_row(cashout: CashoutRecord) -> CashoutRow:
    return CashoutRow(
        createdOn=iso_utc(cashout.created),
        amount=float(cashout.amount),
        cancelledAmount=float(cashout.cancelled_amount),
        paidAmount=float(cashout.paid_amount),
        status=cashout.status,
        cashoutId=cashout.cashout_id,
    )


@routes("transactionHistory")
async def transaction_history(call: Call) -> TransactionHistoryResponse:
    """Deposits and cashouts of the range, newest first (the order is not shown); the request's
    currency is not a filter: a player has one real-money currency."""
    player = settled(call)
    request = _request(call, TransactionHistoryRequest, TRANSACTION_INPUT_ERROR)
    window = _window(request.startDate, request.endDate, TRANSACTION_INPUT_ERROR)
    kinds = _kinds(request.type)
    deposits = sorted((d for d in player.deposits if window.holds(d.created)), key=lambda d: -d.created)
    cashouts = sorted((c for c in player.cashouts if window.holds(c.created)), key=lambda c: -c.created)
    deposit_rows = [_deposit_row(d) for d in deposits] if DEPOSITS in kinds else []
    cashout_rows = [_cashout_row(c) for c in cashouts] if CASHOUT in kinds else []
    return TransactionHistoryResponse(
        deposits=_page(deposit_rows, request.index, request.limit, TRANSACTION_INPUT_ERROR),
        cashouts=_page(cashout_rows, request.index, request.limit, TRANSACTION_INPUT_ERROR),
    )


def _rounds(call: Call, request: GameHistoryRequest) -> list[GameRound]:
    """The caller's rounds started in the range, oldest first."""
    player = settled(call)
    window = _window(request.startDate, request.endDate, GAME_INPUT_ERROR)
    return sorted((r for r in player.game_rounds if window.holds(r.started)), key=lambda r: r.started)


def _text(value: Decimal) -> str:
    """Money as the game history carries it: "Bs. 1,234.50"."""
    return f"{MONEY_PREFIX}{value:,.2f}"


def _game_row(game_round: GameRound) -> GameHistoryRow:
    return GameHistoryRow(
        from_=iso_utc(game_round.started),
        to=iso_utc(game_round.ended),
        name=game_round.name,
        initialBalance=_text(game_round.initial_balance),
        bet=_text(game_round.bet),
        buyIn=_text(game_round.buy_in),
        payouts=_text(game_round.payouts),
        win=_text(game_round.win),
        closingBalance=_text(game_round.closing_balance),
    )


@routes("gameHistory")
async def game_history(call: Call) -> GameHistoryResponse:
    """Rounds oldest first (the SPA reverses them); `total` counts the whole range."""
    request = _request(call, GameHistoryRequest, GAME_INPUT_ERROR)
    rounds = _rounds(call, request)
    page = _page(rounds, request.index, request.limit, GAME_INPUT_ERROR)
    return GameHistoryResponse(total=len(rounds), values=[_game_row(r) for r in page])


@routes("remoteGamesHistory")
async def remote_games_history(call: Call) -> RemoteGamesResponse:
    """The same rounds, by provider (the remote game providers' own view is not shown)."""
    request = _request(call, GameHistoryRequest, GAME_INPUT_ERROR)
    page = _page(_rounds(call, request), request.index, request.limit, GAME_INPUT_ERROR)
    values = [
        RemoteGame(
            gameName=r.name,
            provider=PROVIDERS.get(r.name, "casino"),
            date=iso_utc(r.started),
            bet=float(r.bet),
            win=float(r.win),
        )
        for r in page
    ]
    return RemoteGamesResponse(values=values)
