"""Sportsbook (`/sbapi`, BTi): upcoming soccer, basketball and tennis fixtures with their
markets, bet slips, coupons (placed bets) and the sportsbook's own token.

Fixtures are seeded per site with names in every language; `lang` picks the names an
answer carries. A few fixtures are deliberately incomplete (a soccer 1X2 without Tie, a
basketball game without ML0, a tennis match without Away) so the SPA's rule (a card shows an
event only with all of its sport's outcomes) has something to filter.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from contracts import rules
from contracts.base import PlatformReply
from contracts.locales import DEFAULT_LOCALE, LOCALES, Locale
from contracts.sports import (
    MAIN_MARKET,
    BetSelection,
    Betslip,
    BetslipRequest,
    BetsResponse,
    Coupon,
    CouponRequest,
    Market,
    MarketType,
    RemoteAuth,
    Selection,
    Sport,
    SportEvent,
    SportEvents,
    SportName,
    SportsbookBonus,
    SportsList,
    TicketEmailRequest,
)
from sandbox.platform import Call, Registry, check, failure
from sandbox.state import BetRecord, Player, Site, money
from sandbox.texts import Words, same, words

routes = Registry()

DEFAULT_LANG: Locale = DEFAULT_LOCALE
HOUR = 3600.0
MARGIN = 1.06  # the bookmaker's overround on every market


# --- Fixtures (seeded) ----------------------------------------------------------------


@dataclass(frozen=True)
class Price:
    id: str
    outcome: str
    odds: float
    name: Words


@dataclass(frozen=True)
class FixtureMarket:
    id: str
    type_id: str
    name: Words
    prices: tuple[Price, ...]


@dataclass(frozen=True)
class Fixture:
    id: str
    sport: SportName
    league: Words
    home: Words
    away: Words
    start: str
    markets: tuple[FixtureMarket, ...]

    def price(self, selection_id: str) -> Price | None:
        return next((p for m in self.markets for p in m.prices if p.id == selection_id), None)


@dataclass(frozen=True)
class League:
    sport: SportName
    name: Words
    teams: tuple[Words, ...]


def _names(names: str) -> tuple[Words, ...]:
    return tuple(same(n) for n in names.split("|"))


def _translated(teams: str) -> tuple[Words, ...]:
    """Teams whose names are translated (national teams): `sports.team.<key>` in sandbox/texts."""
    return tuple(words(f"sports.team.{key}") for key in teams.split("|"))


LEAGUES = (
    League(
        "Soccer",
        words("sports.league.argentina"),
        _names("River Plate|Boca Juniors|Racing Club|Independiente|San Lorenzo|Estudiantes|Talleres|Vélez"),
    ),
    League(
        "Soccer",
        words("sports.league.brasileirao"),
        _names("Flamengo|Palmeiras|Corinthians|São Paulo|Grêmio|Internacional"),
    ),
    League("Soccer", words("sports.league.friendlies"), _translated("germany|spain|brazil|england|france|netherlands")),
    League(
        "Basketball",
        same("NBA"),
        _names("Los Angeles Lakers|Boston Celtics|Miami Heat|Denver Nuggets|Chicago Bulls|Golden State Warriors"),
    ),
    League(
        "Basketball",
        words("sports.league.ligaNacional"),
        _names("Quimsa|Boca Juniors|Instituto|Obras Sanitarias|Regatas Corrientes|Peñarol"),
    ),
    League(
        "Tennis",
        words("sports.league.australianOpen"),
        _names("M. Ferreyra|L. Castaño|J. Albrecht|T. Morel|D. Okafor|R. Silveira"),
    ),
    League(
        "Tennis",
        same("ATP Buenos Aires"),
        _names("A. Kowalczyk|S. Navarro|P. Lindqvist|F. Duarte|E. Marchetti|K. Tanaka"),
    ),
)

COMPLETE_PER_SPORT = 7
SPORT_CODES: Mapping[SportName, str] = {"Soccer": "soc", "Basketball": "bsk", "Tennis": "ten"}
SPORT_NAMES: Mapping[SportName, Words] = {sport: words(f"sports.sport.{sport}") for sport in SPORT_CODES}
MATCH_WINNER = words("sports.market.matchWinner")
FULL_TIME = words("sports.market.fullTime")
TIE = words("sports.selection.tie")
# Other markets per sport: (type id, line, name).
SIDE_MARKETS: Mapping[SportName, tuple[tuple[str, float, Words], ...]] = {
    "Soccer": (("OU2.5", 2.5, words("sports.market.totalGoals")), ("HC-1", -1, words("sports.market.handicap"))),
    "Basketball": (
        ("OU215.5", 215.5, words("sports.market.totalPoints")),
        ("HC-5.5", -5.5, words("sports.market.handicap")),
    ),
    "Tennis": (
        ("OU22.5", 22.5, words("sports.market.totalGames")),
        ("HC-3.5", -3.5, words("sports.market.gameHandicap")),
    ),
}
OVER = words("sports.over")
UNDER = words("sports.under")


@dataclass(frozen=True)
class Defect:
    """A deliberately incomplete fixture: `drop` outcomes leave its ML0, or ML0 goes."""

    sport: SportName
    drop: tuple[str, ...]


DEFECTS = (Defect("Soccer", ("Tie",)), Defect("Basketball", (MAIN_MARKET,)), Defect("Tennis", ("Away",)))


def seed_events(site: Site, rng: random.Random, now: float) -> list[Fixture]:
    """Fixtures over the next four days: complete ones per sport, then the defects, by start."""
    fixtures: list[Fixture] = []
    for sport in SPORT_CODES:
        leagues = [league for league in LEAGUES if league.sport == sport]
        for n in range(COMPLETE_PER_SPORT):
            fixtures.append(_fixture(rng, now, leagues[n % len(leagues)], f"{SPORT_CODES[sport]}-{1001 + n}", ()))
    for n, defect in enumerate(DEFECTS):
        league = next(league for league in LEAGUES if league.sport == defect.sport)
        fixtures.append(_fixture(rng, now, league, f"{SPORT_CODES[defect.sport]}-{1901 + n}", defect.drop))
    return sorted(fixtures, key=lambda f: f.start)


def _fixture(rng: random.Random, now: float, league: League, fixture_id: str, drop: tuple[str, ...]) -> Fixture:
    home, away = rng.sample(league.teams, 2)
    quarter_hours = rng.randint(4, 4 * 24 * 4)  # from one hour to four days ahead
    start = dt.datetime.fromtimestamp(now - now % 900 + quarter_hours * 900, dt.UTC)
    markets = [] if MAIN_MARKET in drop else [_main_market(rng, fixture_id, league.sport, home, away, drop)]
    markets += [
        _side_market(rng, fixture_id, type_id, line, name, home, away)
        for type_id, line, name in SIDE_MARKETS[league.sport]
    ]
    iso = start.strftime("%Y-%m-%dT%H:%M:%SZ")
    return Fixture(fixture_id, league.sport, league.name, home, away, iso, tuple(markets))


def _odds(probability: float) -> float:
    return max(1.01, round(1 / (probability * MARGIN), 2))


def _main_market(
    rng: random.Random, fixture_id: str, sport: SportName, home: Words, away: Words, drop: tuple[str, ...]
) -> FixtureMarket:
    """ML0: soccer's 1X2 lists Tie, Home, Away in that order; other sports Home, Away."""
    tie = rng.uniform(0.22, 0.3) if sport == "Soccer" else 0.0
    home_p = rng.uniform(0.25, 0.75) * (1 - tie)
    chances = {"Tie": tie, "Home": home_p, "Away": 1 - tie - home_p}
    names = {"Tie": TIE, "Home": home, "Away": away}
    outcomes = [o for o in (("Tie", "Home", "Away") if sport == "Soccer" else ("Home", "Away")) if o not in drop]
    prices = tuple(Price(f"{fixture_id}-ML0-{o}", o, _odds(chances[o]), names[o]) for o in outcomes)
    title = FULL_TIME if sport == "Soccer" else MATCH_WINNER
    return FixtureMarket(f"{fixture_id}-ML0", MAIN_MARKET, title, prices)


def _side_market(
    rng: random.Random, fixture_id: str, type_id: str, line: float, name: Words, home: Words, away: Words
) -> FixtureMarket:
    first = rng.uniform(0.4, 0.6)
    if type_id.startswith("OU"):
        over = {lang: f"{OVER[lang]} {line}" for lang in LOCALES}
        under = {lang: f"{UNDER[lang]} {line}" for lang in LOCALES}
        sides = (("Over", first, over), ("Under", 1 - first, under))
    else:
        handicapped = {lang: f"{home[lang]} ({line:+g})" for lang in LOCALES}
        given = {lang: f"{away[lang]} ({-line:+g})" for lang in LOCALES}
        sides = (("Home", first, handicapped), ("Away", 1 - first, given))
    prices = tuple(Price(f"{fixture_id}-{type_id}-{o}", o, _odds(p), words) for o, p, words in sides)
    return FixtureMarket(f"{fixture_id}-{type_id}", type_id, name, prices)


# --- Answers in one language -----------------------------------------------------------


def _lang(call: Call) -> Locale:
    """The `lang` query (es, pt, en); default es as the site's default language."""
    wanted = call.query.get("lang", DEFAULT_LANG)
    for lang in LOCALES:
        if lang == wanted:
            return lang
    raise failure(f"Unsupported language {wanted}", "BAD_REQUEST", 400)


def fixtures(site: Site) -> Sequence[Fixture]:
    found: Sequence[Fixture] = site.content.get("sports", ())
    return found


def sport_event(fixture: Fixture, lang: Locale) -> SportEvent:
    home, away = fixture.home[lang], fixture.away[lang]
    markets = [
        Market(
            _id=m.id,
            marketType=MarketType(_id=m.type_id, name=m.name[lang]),
            startDate=fixture.start,
            homeTeam=home,
            awayTeam=away,
            selections=[
                Selection(
                    _id=p.id, outcomeType=p.outcome, trueOdds=p.odds, name=p.name[lang], displayOdds=f"{p.odds:.2f}"
                )
                for p in m.prices
            ],
        )
        for m in fixture.markets
    ]
    return SportEvent(
        _id=fixture.id,
        leagueName=fixture.league[lang],
        sportName=fixture.sport,
        startEventDate=fixture.start,
        markets=markets,
    )


@routes("sportsEvents")
async def sports_events(call: Call) -> SportEvents:
    """The combined list; `sport` (Soccer, Basketball, Tennis, any case) narrows it."""
    lang = _lang(call)
    sport = call.query.get("sport")
    chosen = [f for f in fixtures(call.site) if sport is None or f.sport.lower() == sport.lower()]
    return SportEvents(totalCount=len(chosen), events=[sport_event(f, lang) for f in chosen])


@routes("sportsList")
async def sports_list(call: Call) -> SportsList:
    lang = _lang(call)
    listed = fixtures(call.site)
    return SportsList(
        sports=[
            Sport(_id=sport, name=SPORT_NAMES[sport][lang], eventCount=sum(1 for f in listed if f.sport == sport))
            for sport in SPORT_CODES
        ]
    )


# --- Bet slips and coupons ----------------------------------------------------------------


@dataclass(frozen=True)
class Slip:
    """Selections priced at the current odds."""

    selections: list[BetSelection]
    total_odds: float

    def potential_win(self, stake: Decimal) -> Decimal:
        return money(stake * Decimal(str(self.total_odds)))


def price_slip(site: Site, selections: Sequence[BetSelection]) -> Slip:
    """The slip at today's odds; unknown selections and two picks on one event are refused."""
    if not selections:
        raise failure("Add at least one selection", "EMPTY_BETSLIP")
    by_id = {f.id: f for f in fixtures(site)}
    priced: list[BetSelection] = []
    total = Decimal("1")
    for picked in selections:
        fixture = by_id.get(picked.eventId)
        price = fixture.price(picked.selectionId) if fixture else None
        if price is None:
            raise failure(f"Selection {picked.selectionId} is not available", "SELECTION_NOT_FOUND")
        if any(p.eventId == picked.eventId for p in priced):
            raise failure("Only one selection per event can be combined", "SAME_EVENT")
        priced.append(BetSelection(eventId=picked.eventId, selectionId=price.id, odds=price.odds))
        total *= Decimal(str(price.odds))
    return Slip(priced, float(total.quantize(Decimal("0.01"))))


def _stake(value: float) -> Decimal:
    stake = money(value)
    if stake <= 0:
        raise failure("Stake must be greater than 0", "INVALID_STAKE")
    return stake


def _betslip(call: Call) -> Betslip:
    request = call.body(BetslipRequest)
    slip = price_slip(call.site, request.selections)
    win = slip.potential_win(_stake(request.stake)) if request.stake is not None else Decimal("0")
    return Betslip(selections=slip.selections, totalOdds=slip.total_odds, potentialWin=float(win))


@routes("betslip")
async def betslip(call: Call) -> Betslip:
    return _betslip(call)


@routes("anonymousBet")
async def anonymous_bet(call: Call) -> Betslip:
    return _betslip(call)


@routes("coupon")
async def coupon(call: Call) -> Coupon:
    """Places the bet: the stake leaves the player's cash at once; settlement is not shown."""
    player = call.player
    request = call.body(CouponRequest)
    slip = price_slip(call.site, request.selections)
    stake = _stake(request.stake)
    if stake > player.main.cash:
        raise failure("Insufficient balance", "INSUFFICIENT_FUNDS")
    record = BetRecord(
        coupon_id=call.state.next_id("CPN"),
        placed=time.time(),
        stake=stake,
        total_odds=slip.total_odds,
        potential_win=slip.potential_win(stake),
        selection_ids=tuple(s.selectionId for s in slip.selections),
    )
    player.main.cash -= stake
    player.bets.append(record)
    call.site.record(player, "bet", -stake, record.coupon_id)
    return _coupon(record)


def _coupon(record: BetRecord) -> Coupon:
    return Coupon(
        couponId=record.coupon_id,
        stake=float(record.stake),
        potentialWin=float(record.potential_win),
        status=record.status,
    )


@routes("getBets")
async def get_bets(call: Call) -> BetsResponse:
    """The player's coupons, newest first."""
    return BetsResponse(bets=[_coupon(b) for b in reversed(call.player.bets)])


@routes("sportsBonus")
async def sports_bonus(call: Call) -> SportsbookBonus:
    """Free bets are not shown: chosen as one welcome free bet until the first coupon."""
    player = call.player
    return SportsbookBonus(freeBets=0 if player.bets else 1, bonusBalance=float(player.main.bonus))


@routes("sportsAuth")
async def sports_auth(call: Call) -> RemoteAuth:
    """The sportsbook's own token: fresh per call, never the session id."""
    return RemoteAuth(token=secrets.token_urlsafe(24))


@routes("ticketEmail")
async def ticket_email(call: Call) -> PlatformReply:
    """Mails a placed coupon's ticket to the given address, else to the player's own."""
    player = call.player
    data = call.json()
    if data.get("email"):
        check({"email": rules.EMAIL_FIELD}, data)
    request = call.body(TicketEmailRequest)
    bet = _bet(player, request.couponId)
    address = request.email or player.email
    return PlatformReply(description=f"Ticket {bet.coupon_id} sent to {address}")


def _bet(player: Player, coupon_id: str) -> BetRecord:
    found = next((b for b in player.bets if b.coupon_id == coupon_id), None)
    if found is None:
        raise failure("Coupon not found", "NOT_FOUND")
    return found
