"""Wallet: balances, player levels (VIP), comp-point exchange, leaderboards."""

from __future__ import annotations

from contracts.base import PlatformReply, Wire
from contracts.player import Money

PLAYMONEY = "PLAYMONEY"
COMPPOINTS = "COMPPOINTS"


class WalletName(Wire, kw_only=True):
    id: int
    name: str


class WalletEntry(Wire, kw_only=True):
    """One wallet. PLAYMONEY and COMPPOINTS are not the real-money currency;
    the COMPPOINTS cash value is the player's VIP points."""

    wallet: WalletName
    symbol: str
    preferred: bool = False
    cash: Money
    bonus: Money
    cashInPlay: Money
    bonusInPlay: Money | None = None
    lockedBonus: Money | None = None
    tournamentMoney: Money | None = None


class BalanceResponse(PlatformReply, kw_only=True):
    values: list[WalletEntry] = []


class PlayerLevel(Wire, kw_only=True):
    """period: Week, Month, Year, or anything else meaning hourly."""

    name: str
    priority: int = 0
    period: str
    compPoints: float


class LevelCounter(Wire, kw_only=True):
    periodType: str | None = None
    startDate: str | None = None
    endDate: str | None = None
    compPoints: float = 0.0
    deposits: float = 0.0
    bets: float = 0.0


class PlayerLevelsResponse(PlatformReply, kw_only=True):
    playerLevelResponses: list[PlayerLevel] = []
    weeklyCounter: LevelCounter | None = None
    monthlyCounter: LevelCounter | None = None
    yearkyCounter: LevelCounter | None = None  # sic: the platform's spelling
    hourlyCounter: LevelCounter | None = None
    goldCounter: LevelCounter | None = None


class ExchangeRate(Wire, kw_only=True):
    """exchangeRates: 'not shown'. Chosen: comp points needed for one unit of currency."""

    currency: str
    compPoints: float
    rate: float
    minimumPoints: float


class ExchangeRatesResponse(PlatformReply, kw_only=True):
    rates: list[ExchangeRate] = []


class ExchangeRequest(Wire, kw_only=True):
    """VIP points exchange: 'varies'. Chosen: the points to turn into cash."""

    compPoints: float
    currency: str | None = None


class ExchangeResponse(PlatformReply, kw_only=True):
    cashCredited: float = 0.0
    compPointsLeft: float = 0.0


class Leaderboard(Wire, kw_only=True):
    id: str
    name: str
    startDate: str
    endDate: str
    status: str


class LeaderboardListResponse(PlatformReply, kw_only=True):
    leaderboards: list[Leaderboard] = []


class LeaderboardParticipantsRequest(Wire, kw_only=True):
    leaderboardId: str


class LeaderboardParticipant(Wire, kw_only=True):
    rank: int
    nickname: str
    points: float
    prize: str | None = None


class LeaderboardParticipantsResponse(PlatformReply, kw_only=True):
    participants: list[LeaderboardParticipant] = []
