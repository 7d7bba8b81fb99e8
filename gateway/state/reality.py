"""The session's reality check: when one is due, which was answered, and the figures it shows.

The gateway decides: a check is due every `Features.reality_check_minutes` of the session, counted
from its sign-in (`SessionData.signed_in`), by the gateway's clock, never a tab's. Checks are
numbered (the first is due one period after sign-in); the number answered last is kept beside the
session, under its id, so every tab and instance reads one answer, and a check that falls due while
another is open is the same one (answering covers every check due so far: they never stack).

It is kept beside the session rather than in it because every request that changes a session
writes it whole (last writer wins): a balance poll that loaded the session before the answer and
saved it after would bring the check back.
"""

from __future__ import annotations

import datetime as dt
import math

import msgspec

from gateway.store import Shared, keys

REALITY_ANSWERS = "reality-answers"
"""`bff:<skin>:reality-answers:<session id>`: the number of the last check the session answered."""
ANSWER_TTL_MS = 30 * 24 * 3600 * 1000
"""As long as a remembered session lives; the key goes with it at the latest."""
HISTORY_DAY = "%d-%m-%Y"
APPROVED = "Approved"
CANCELLED = "Cancelled"


def due_check(signed_in: float, now: float, every_s: float) -> int:
    """The number of the newest check due at `now` (0: none yet)."""
    if signed_in <= 0 or every_s <= 0 or now <= signed_in:
        return 0
    return math.floor((now - signed_in) / every_s)


async def answered_check(shared: Shared, skin_id: str, session_id: str) -> int:
    raw = await shared.get(keys.of_skin(skin_id, REALITY_ANSWERS, session_id))
    return int(raw) if raw and raw.isdigit() else 0


async def answer_check(shared: Shared, skin_id: str, session_id: str, number: int) -> None:
    await shared.set(keys.of_skin(skin_id, REALITY_ANSWERS, session_id), str(number).encode(), ANSWER_TTL_MS)


class _Money(msgspec.Struct):
    value: float = 0.0


class _WalletName(msgspec.Struct):
    name: str = ""


class _Wallet(msgspec.Struct):
    wallet: _WalletName = msgspec.field(default_factory=_WalletName)
    preferred: bool = False
    cash: _Money = msgspec.field(default_factory=_Money)


class _Balance(msgspec.Struct):
    values: list[_Wallet] = []
    code: object = None


_balance = msgspec.json.Decoder(_Balance)


def wallet_cash(body: bytes, currency: str) -> float | None:
    """The cash of the skin's real-money wallet in a balance answer (its currency's, else the
    preferred one); None for a refusal or an answer without one."""
    try:
        balance = _balance.decode(body)
    except msgspec.DecodeError:
        return None
    if balance.code or not balance.values:
        return None
    named = [w for w in balance.values if w.wallet.name.upper() == currency]
    wallet = (named or [w for w in balance.values if w.preferred] or balance.values)[0]
    return wallet.cash.value


class _Deposit(msgspec.Struct):
    startDate: str = ""
    cashAmount: float = 0.0
    status: str = ""


class _Cashout(msgspec.Struct):
    createdOn: str = ""
    amount: float = 0.0
    cancelledAmount: float = 0.0
    status: str = ""


class _Transactions(msgspec.Struct):
    deposits: list[_Deposit] = []
    cashouts: list[_Cashout] = []
    success: object = None


_transactions = msgspec.json.Decoder(_Transactions)


def history_request(signed_in: float, now: float, currency: str) -> bytes:
    """The platform's transaction history from the sign-in's day to today (its days are UTC)."""
    day = dt.UTC
    start = dt.datetime.fromtimestamp(signed_in, day).strftime(HISTORY_DAY)
    end = dt.datetime.fromtimestamp(now, day).strftime(HISTORY_DAY)
    return msgspec.json.encode(
        {"currency": currency, "startDate": start, "endDate": end, "type": "Deposits,Cashout", "limit": 1000}
    )


def session_moves(body: bytes, signed_in: float) -> tuple[float, float] | None:
    """Deposits approved and withdrawals asked for (less what was cancelled) since `signed_in`, as the
    platform's history has them now (a deposit it approved after the session's start counts); None
    when the platform refused or sent something else."""
    try:
        history = _transactions.decode(body)
    except msgspec.DecodeError:
        return None
    if history.success is False:
        return None
    since = math.floor(signed_in)  # the history's times are to the second: a move in the sign-in's own second counts
    deposits = sum(d.cashAmount for d in history.deposits if d.status == APPROVED and _at(d.startDate) >= since)
    asked = [c for c in history.cashouts if c.status != CANCELLED and _at(c.createdOn) >= since]
    withdrawals = sum(c.amount - c.cancelledAmount for c in asked)
    return round(deposits, 2), round(withdrawals, 2)


def _at(instant: str) -> float:
    """An ISO 8601 instant of the history as epoch seconds (one without a zone is UTC; 0: unreadable)."""
    try:
        parsed = dt.datetime.fromisoformat(instant.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)).timestamp()
