"""Sportsbook (`/sbapi`, BTi): events, markets and selections.

The spec names camel-cased fields (marketType, outcomeType, trueOdds); BTi's own API
spells some in Pascal case. The contract follows the spec.
"""

from __future__ import annotations

from typing import Literal

from contracts.base import PlatformReply, Wire

OutcomeType = Literal["Home", "Tie", "Away"]
SportName = Literal["Soccer", "Basketball", "Tennis"]
MAIN_MARKET = "ML0"


class Selection(Wire, kw_only=True):
    _id: str
    outcomeType: OutcomeType | str
    trueOdds: float
    name: str
    displayOdds: str | None = None


class MarketType(Wire, kw_only=True):
    _id: str
    name: str | None = None


class Market(Wire, kw_only=True):
    _id: str
    marketType: MarketType
    startDate: str
    homeTeam: str
    awayTeam: str
    selections: list[Selection]


class SportEvent(Wire, kw_only=True):
    _id: str
    leagueName: str
    sportName: str
    startEventDate: str
    isLive: bool = False
    markets: list[Market]


class SportEvents(Wire, kw_only=True):
    """The combined soccer / basketball / tennis list."""

    totalCount: int
    events: list[SportEvent]


class Sport(Wire, kw_only=True):
    _id: str
    name: str
    eventCount: int


class SportsList(Wire, kw_only=True):
    sports: list[Sport]


class BetSelection(Wire, kw_only=True):
    eventId: str
    selectionId: str
    odds: float


class BetslipRequest(Wire, kw_only=True):
    selections: list[BetSelection]
    stake: float | None = None


class Betslip(PlatformReply, kw_only=True):
    selections: list[BetSelection] = []
    totalOdds: float = 1.0
    potentialWin: float = 0.0


class Coupon(PlatformReply, kw_only=True):
    """A placed bet ('coupon')."""

    couponId: str | None = None
    stake: float = 0.0
    potentialWin: float = 0.0
    status: str | None = None


class CouponRequest(Wire, kw_only=True):
    selections: list[BetSelection]
    stake: float


class BetsResponse(PlatformReply, kw_only=True):
    bets: list[Coupon] = []


class SportsbookBonus(PlatformReply, kw_only=True):
    freeBets: int = 0
    bonusBalance: float = 0.0


class RemoteAuth(PlatformReply, kw_only=True):
    """/sbapi/auth/remote: the sportsbook's own token for the player."""

    token: str | None = None


class TicketEmailRequest(Wire, kw_only=True):
    couponId: str
    email: str | None = None
