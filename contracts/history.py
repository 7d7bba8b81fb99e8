"""Transaction history and casino game history."""

from __future__ import annotations

from typing import Annotated

import msgspec

from contracts.base import PlatformReply, Wire

# Request dates are DD-MM-YYYY.
HistoryDate = Annotated[str, msgspec.Meta(pattern=r"^[0-3][0-9]-[01][0-9]-[0-9]{4}$")]
NO_HISTORY_DESCRIPTIONS = ("TECHNICAL_ERROR", "failed to get transaction history with given input")
DEPOSIT_LOCKED = "Locked"  # shown as Failed


class TransactionHistoryRequest(Wire, kw_only=True):
    currency: str = "ARS"
    startDate: HistoryDate
    endDate: HistoryDate
    limit: int = 100
    index: int = 0
    # Comma-joined "Deposits" and/or "Cashout".
    type: str


class DepositRow(Wire, kw_only=True):
    startDate: str
    cashAmount: float
    bonus: float
    status: str
    seque_no: str | None = None
    paymentMethod: int | None = None


class CashoutRow(Wire, kw_only=True):
    createdOn: str
    amount: float
    cancelledAmount: float
    paidAmount: float
    status: str
    cashoutId: str | None = None


class TransactionHistoryResponse(PlatformReply, kw_only=True):
    deposits: list[DepositRow] = []
    cashouts: list[CashoutRow] = []


class GameHistoryRequest(Wire, kw_only=True):
    currency: str = "ARS"
    startDate: HistoryDate
    endDate: HistoryDate
    limit: int = 10000000
    index: int = 0


class GameHistoryRow(Wire, kw_only=True):
    """Values arrive as text with a "Bs. " prefix and thousands commas."""

    from_: str = msgspec.field(name="from")
    to: str
    name: str
    initialBalance: str
    bet: str
    buyIn: str
    payouts: str
    win: str
    closingBalance: str


class GameHistoryResponse(PlatformReply, kw_only=True):
    total: int = 0
    values: list[GameHistoryRow] = []


class RemoteGame(Wire, kw_only=True):
    gameName: str
    provider: str
    date: str
    bet: float
    win: float


class RemoteGamesResponse(PlatformReply, kw_only=True):
    values: list[RemoteGame] = []
