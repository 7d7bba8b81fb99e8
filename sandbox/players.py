"""Players: sessions, registration, recovery, profile, documents, providers, contact, the
wallets and the VIP club (levels, comp-point exchange, the Blackjack League).

Every form is checked server-side with the spec's validation rules (`contracts.rules`), so a
call that skips the SPA still gets the spec's messages. Money moves only between a
player's own wallets, and every real-money movement is written to the site's ledger.
"""

from __future__ import annotations

import datetime as dt
import hmac
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from html import escape
from typing import Any
from urllib.parse import urlencode

from litestar import Response
from litestar.datastructures import UploadFile

from contracts import rules
from contracts.base import PlatformReply
from contracts.player import (
    DOC_CODES,
    AffiliateHitRequest,
    ContactRequest,
    CountriesResponse,
    Country,
    CurrenciesResponse,
    Currency,
    DocType,
    Document,
    DocumentsResponse,
    ForgotPasswordRequest,
    GamesResponse,
    LaunchUrls,
    LoginDetails,
    LoginRequest,
    LoginResponse,
    Money,
    OtpRequest,
    PlatformGame,
    PlayerStats,
    PokerTournament,
    PokerTournamentsResponse,
    Profile,
    ProfileAddress,
    ProviderPermission,
    ProviderPermissionsRequest,
    ProviderStatus,
    RegisterRequest,
    RegisterResponse,
    UpdatePasswordRequest,
    UpdateProfileRequest,
    UploadFileResponse,
    VerifyAccountRequest,
    VerifyAccountResponse,
    WageringInfo,
)
from contracts.wallet import (
    COMPPOINTS,
    PLAYMONEY,
    BalanceResponse,
    ExchangeRate,
    ExchangeRatesResponse,
    ExchangeRequest,
    ExchangeResponse,
    Leaderboard,
    LeaderboardListResponse,
    LeaderboardParticipant,
    LeaderboardParticipantsRequest,
    LeaderboardParticipantsResponse,
    LevelCounter,
    PlayerLevel,
    PlayerLevelsResponse,
    WalletEntry,
    WalletName,
)
from sandbox import cashier, content, launches, seed
from sandbox.platform import Call, Registry, check, convert, failure
from sandbox.state import DocumentRecord, Player, Site, Wallet, money

routes = Registry()

INVALID_LOGIN = "Invalid Login or Password"
LOGIN_USED = "Login already used"
UNKNOWN_ACCOUNT = "Provided Email or Username does not exist"
PASSWORD_SENT = "Password sent successfully to the registered Email Id"
CONTACT_SENT = "Successfully sent. Our support team will revert back soon."
PROFILE_UPDATED = "Profile updated successfully"
WRONG_OLD_PASSWORD = "Invalid argument"
SAME_PASSWORD = "Old Password and  New Password Cannot be the same"  # two spaces, as the spec writes it
PLAYMONEY_START = money(10000)
OTP_FORM: rules.FormRules = {"phone": rules.PHONE}


def _money(amount: Decimal) -> Money:
    return Money(value=float(money(amount)))


def _same_secret(given: str, kept: str) -> bool:
    return hmac.compare_digest(given.encode(), kept.encode())


# --- Sessions: login, logout, register ------------------------------------------------


def _signed_in(call: Call, player: Player, postback: str | None = None) -> LoginDetails:
    session = call.state.open_session(call.site, player)
    return LoginDetails(sessionId=session.token, affiliatePostBackURL=postback, login=player.login)


@routes("login")
async def login(call: Call) -> LoginResponse:
    request = call.body(LoginRequest, rules.LOGIN_FORM)
    player = call.site.player(request.login)
    if player is None or not _same_secret(request.password, player.password):
        raise failure(INVALID_LOGIN)
    details = _signed_in(call, player)
    return LoginResponse(sessionId=details.sessionId, loginResponse=details)


@routes("logout")
async def logout(call: Call) -> PlatformReply:
    if call.session is not None:
        call.site.sessions.pop(call.session.token, None)
    return PlatformReply()


def _given(form: rules.FormRules, data: Mapping[str, Any]) -> rules.FormRules:
    """The rules of the fields that are present: optional fields are checked "if given"."""
    return {name: rule for name, rule in form.items() if data.get(name) not in (None, "")}


def _without_blanks(form: rules.FormRules, data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` less the optional fields left empty, which the SPA sends as ''."""
    return {name: value for name, value in data.items() if not (name in form and value == "")}


def _register_request(data: Mapping[str, Any]) -> RegisterRequest:
    """The payload after every validation rule; optional fields only when given."""
    check({**rules.REGISTER_FORM, **_given(rules.REGISTER_OPTIONAL, data)}, data)
    given = _without_blanks(rules.REGISTER_OPTIONAL, data)
    address = data.get("address")
    if isinstance(address, dict):
        check(_given(rules.REGISTER_ADDRESS, address), address)
        given["address"] = _without_blanks(rules.REGISTER_ADDRESS, address)
    return convert(given, RegisterRequest)


def _postback(call: Call, request: RegisterRequest, player: Player) -> str | None:
    """Where the affiliate network hears of the sign-up: only a campaign has one."""
    if not request.campaignCode:
        return None
    query = urlencode({"campaignCode": request.campaignCode, "login": player.login, "siteid": call.site.site_id})
    return f"{call.base_url}/_sandbox/affiliate/postback?{query}"


def _new_account(site: Site, request: RegisterRequest) -> Player:
    """The payload's details on a fresh account; its province stays LA RIOJA whatever is sent."""
    player = seed.new_player(site, request.login, request.password, request.email)
    player.nickname = request.nickname
    player.first_name = request.firstName or request.login
    player.last_name = request.lastName or ""
    player.ssn = request.ssn
    if request.address is not None:
        player.address = request.address.address or ""
        player.city = request.address.city or ""
        player.phone = request.address.phone or ""
    return player


@routes("register")
async def register(call: Call) -> RegisterResponse:
    """A new account with empty wallets, signed in at once; the e-mail still needs verifying."""
    request = _register_request(call.json())
    if call.site.player(request.login) is not None:
        raise failure(LOGIN_USED, "LOGIN_USED")
    player = _new_account(call.site, request)
    call.site.players[player.login] = player
    return RegisterResponse(loginResponse=_signed_in(call, player, _postback(call, request, player)))


# --- Recovery and verification ----------------------------------------------------------

CAPTCHA_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I look-alikes
CAPTCHA_LENGTH = 6


def captcha_svg(text: str, rng: random.Random) -> str:
    """The text drawn with tilted letters over noise lines."""
    letters = "".join(
        f'<text x="{14 + i * 22}" y="{34 + rng.randint(-5, 5)}" transform="rotate({rng.randint(-20, 20)} '
        f'{20 + i * 22} 28)" fill="hsl({rng.randint(0, 359)},60%,35%)">{escape(char)}</text>'
        for i, char in enumerate(text)
    )
    lines = "".join(
        f'<line x1="{rng.randint(0, 150)}" y1="{rng.randint(0, 50)}" x2="{rng.randint(0, 150)}" '
        f'y2="{rng.randint(0, 50)}" stroke="hsl({rng.randint(0, 359)},40%,55%)" stroke-width="1.5"/>'
        for _ in range(5)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="50" viewBox="0 0 150 50">'
        '<rect width="150" height="50" fill="#f4f1ea"/>'
        f'<g font-family="Verdana, sans-serif" font-size="26" font-weight="700">{letters}</g>{lines}</svg>'
    )


@routes("generateCaptcha")
async def generate_captcha(call: Call) -> Response[str]:
    """A fresh image each time; no call in the spec sends the answer back, so it is not kept."""
    rng = random.SystemRandom()
    text = "".join(rng.choice(CAPTCHA_LETTERS) for _ in range(CAPTCHA_LENGTH))
    headers = {"Cache-Control": "no-store"}
    return Response(captcha_svg(text, rng), status_code=200, media_type="image/svg+xml", headers=headers)


@routes("forgotPassword")
async def forgot_password(call: Call) -> PlatformReply:
    request = call.body(ForgotPasswordRequest, rules.FORGOT_PASSWORD_FORM)
    player = call.site.player(request.login)
    if player is None or player.email != request.email.lower():
        raise failure(UNKNOWN_ACCOUNT, "ACCOUNT_NOT_FOUND")
    return PlatformReply(description=PASSWORD_SENT)


@routes("generateOTP")
async def generate_otp(call: Call) -> PlatformReply:
    """The code's delivery and its check are not shown: the answer names where it went."""
    request = call.body(OtpRequest, OTP_FORM)
    return PlatformReply(description=f"OTP sent to the phone number ending in {request.phone[-4:]}")


def _by_verify_token(site: Site, token: str) -> Player | None:
    return next((p for p in site.players.values() if _same_secret(token, p.verify_token)), None)


@routes("verifyAccount")
async def verify_account(call: Call) -> VerifyAccountResponse:
    """The e-mail link's token; `face` names the skin, which the site header already does."""
    request = call.body(VerifyAccountRequest)
    player = _by_verify_token(call.site, request.token)
    if player is None:
        return VerifyAccountResponse(success=False, code="INVALID_TOKEN", description="Invalid token")
    if player.verified:
        return VerifyAccountResponse(success=False, code="ALREADY_VERIFIED", description="Account already verified")
    player.verified = True
    return VerifyAccountResponse(code="ACCOUNT_VERIFIED", description="Account verified successfully")


# --- Visitors' calls ----------------------------------------------------------------------

COUNTRIES: tuple[Country, ...] = tuple(
    Country(code=code, name=name)
    for code, name in (
        ("AR", "Argentina"),
        ("BO", "Bolivia"),
        ("BR", "Brazil"),
        ("CL", "Chile"),
        ("CO", "Colombia"),
        ("EC", "Ecuador"),
        ("GH", "Ghana"),
        ("IN", "India"),
        ("MX", "Mexico"),
        ("NG", "Nigeria"),
        ("PY", "Paraguay"),
        ("PE", "Peru"),
        ("PT", "Portugal"),
        ("ES", "Spain"),
        ("UY", "Uruguay"),
        ("VE", "Venezuela"),
    )
)
CURRENCIES: tuple[Currency, ...] = (
    Currency(code="INR", symbol="₹"),
    Currency(code="ARS", symbol="$"),
    Currency(code="VES", symbol="Bs."),
    Currency(code="GHS", symbol="GH₵"),
    Currency(code="NGN", symbol="₦"),
    Currency(code="USD", symbol="US$"),
)


@routes("getCountries")
async def get_countries(call: Call) -> CountriesResponse:
    return CountriesResponse(countries=list(COUNTRIES))


@routes("getCurrencies")
async def get_currencies(call: Call) -> CurrenciesResponse:
    """The site's own currency (with its symbol) first, then the others the platform knows."""
    own = Currency(code=call.site.currency, symbol=call.site.symbol)
    return CurrenciesResponse(currencies=[own, *(c for c in CURRENCIES if c.code != own.code)])


@routes("contactUs")
async def contact_us(call: Call) -> PlatformReply:
    """Visitors and players alike; a player's login comes from the session, never the form."""
    request = call.body(ContactRequest, rules.CONTACT_FORM)
    client = call.request.client
    call.site.contact_messages.append(
        {
            "at": time.time(),
            "face": request.face,
            "ip": request.ip or (client.host if client else None),
            "lang": request.lang,
            "loginName": call.player_.login if call.player_ else None,
            "firstName": request.firstName,
            "lastName": request.lastName,
            "email": request.email,
            "subject": request.subject,
            "userQuestion": request.userQuestion,
        }
    )
    return PlatformReply(description=CONTACT_SENT)


@routes("affiliateHit")
async def affiliate_hit(call: Call) -> PlatformReply:
    request = call.body(AffiliateHitRequest)
    call.site.affiliate_hits[request.campaignId] += 1
    return PlatformReply()


@routes("getProviders")
async def get_providers(call: Call) -> list[ProviderStatus]:
    return [ProviderStatus(name=name, status=1 if on else 0) for name, on in call.site.providers.items()]


@routes("getGames")
async def get_games(call: Call) -> GamesResponse:
    """The listed games of the providers the site has switched on."""
    games = [
        PlatformGame(gameId=game.game_id, name=game.name, provider=provider)
        for provider, listed in content.PROVIDER_LISTS.items()
        if call.site.providers.get(provider, False)
        for game in listed
    ]
    return GamesResponse(games=games)


# --- Profile and password -------------------------------------------------------------------


@routes("getProfile")
async def get_profile(call: Call) -> Profile:
    player = call.player
    address = ProfileAddress(
        address=player.address,
        city=player.city,
        state=player.state,
        zipCode=None,  # no form collects a zip code
        country=player.country,
        phone=player.phone,
    )
    return Profile(
        login=player.login,
        nickname=player.nickname,
        email=player.email,
        firstName=player.first_name,
        lastName=player.last_name,
        birthday=player.birthday,
        playertype=player.playertype,
        address=address,
        deposits=player.deposits_flag,
        withdrawal=player.withdrawal_flag,
    )


PROFILE_FIELDS = ("nickname", "email", "firstName", "lastName")
PROFILE_ADDRESS_FIELDS = ("city", "phone", "country")


def _flat_profile(data: Mapping[str, Any]) -> dict[str, Any]:
    """The update's fields at one level, as the validation rules name them."""
    address = data.get("address")
    nested = address if isinstance(address, dict) else {}
    return {
        **{name: data.get(name) for name in PROFILE_FIELDS},
        **{name: nested.get(name) for name in PROFILE_ADDRESS_FIELDS},
    }


@routes("updateProfile")
async def update_profile(call: Call) -> PlatformReply:
    player = call.player
    check(rules.PROFILE_UPDATE_FORM, _flat_profile(call.json()))
    request = call.body(UpdateProfileRequest)
    player.nickname = request.nickname
    player.email = request.email.lower()
    player.first_name = request.firstName
    player.last_name = request.lastName
    player.city = request.address.city
    player.phone = request.address.phone
    player.country = request.address.country
    return PlatformReply(description=PROFILE_UPDATED)


@routes("updatePassword")
async def update_password(call: Call) -> PlatformReply:
    """The SPA turns 'Invalid argument' into 'Invalid Old Password'; sessions stay open."""
    player = call.player
    request = call.body(UpdatePasswordRequest, rules.PASSWORD_CHANGE_FORM)
    if request.oldPassword == request.newPassword:
        raise failure(SAME_PASSWORD, "SAME_PASSWORD")
    if not _same_secret(request.oldPassword, player.password):
        raise failure(WRONG_OLD_PASSWORD, "INVALID_ARGUMENT")
    player.password = request.newPassword
    return PlatformReply(description="Password updated successfully")


# --- Documents ---------------------------------------------------------------------------------

UPLOAD_CHUNK = 1024 * 1024
DOC_NAMES: Mapping[str, DocType] = {name.lower(): name for name in DOC_CODES.values()}


def _doc_type(value: Any) -> DocType | None:
    """An upload code ('0'..'3') or a docType name."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.isdigit():
        return DOC_CODES.get(int(text))
    return DOC_NAMES.get(text.lower())


async def _size(upload: UploadFile) -> int:
    """The file's size, read in chunks: the sandbox keeps no document content."""
    size = 0
    while chunk := await upload.read(UPLOAD_CHUNK):
        size += len(chunk)
    return size


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@routes("uploadFile")
async def upload_file(call: Call) -> UploadFileResponse:
    """Multipart: file, docType (code 0-3), docNumber. A new document waits for review."""
    player = call.player
    form = await call.request.form()
    upload = form.get("file")
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise failure("Please select a file to upload", "FILE_REQUIRED")
    doc_type = _doc_type(form.get("docType"))
    if doc_type is None:
        raise failure("Invalid document type", "INVALID_DOC_TYPE")
    try:
        size = await _size(upload)
    finally:
        await upload.close()
    if size == 0:
        raise failure("The file is empty", "EMPTY_FILE")
    number = form.get("docNumber")
    doc_number = number.strip() if isinstance(number, str) and number.strip() else None
    player.documents.append(DocumentRecord(doc_type, doc_number, upload.filename, size, _now_iso()))
    return UploadFileResponse(description="File uploaded successfully")


def _document(record: DocumentRecord) -> Document:
    return Document(
        docType=record.doc_type,
        docNumber=record.doc_number,
        fileName=record.file_name,
        status=record.status,
        uploadedOn=record.uploaded_on,
    )


@routes("getDocuments")
async def get_documents(call: Call) -> DocumentsResponse:
    return DocumentsResponse(documents=[_document(d) for d in call.player.documents])


# --- Player's games and providers ----------------------------------------------------------------


@routes("getPlayerProviderList")
async def get_player_provider_list(call: Call) -> list[ProviderPermission]:
    """Role 0 is the only role shown: every player sees the site's switches."""
    call.body(ProviderPermissionsRequest)
    return [ProviderPermission(name=name, status=on) for name, on in call.site.providers.items()]


@routes("getLaunchURLS")
async def get_launch_urls(call: Call) -> LaunchUrls:
    """Each switched-on provider's lobby page, with a fresh launch token."""
    urls = {name: launches.game_page(call, name, "lobby") for name, on in call.site.providers.items() if on}
    return LaunchUrls(urls=urls)


@dataclass(frozen=True)
class TournamentPlan:
    name: str
    days_ahead: int
    hour: int
    buy_in: int
    prize_pool: int


TOURNAMENTS = (
    TournamentPlan("Daily Turbo", 0, 21, 500, 50000),
    TournamentPlan("Freeroll Friday", 1, 20, 0, 10000),
    TournamentPlan("Sunday Million", 3, 18, 5000, 1000000),
    TournamentPlan("High Roller", 5, 22, 25000, 2500000),
)


@routes("getPokerTournamentsList")
async def get_poker_tournaments_list(call: Call) -> PokerTournamentsResponse:
    """The poker room's schedule from today; none while the poker provider is switched off."""
    if not call.site.providers.get("evenbetpoker", False):
        return PokerTournamentsResponse(tournamentList=[])
    today = dt.datetime.now(dt.UTC).replace(minute=0, second=0, microsecond=0)
    schedule = [
        PokerTournament(
            id=f"{call.site.site_id}-{plan.name.lower().replace(' ', '-')}",
            name=plan.name,
            startDate=(today.replace(hour=plan.hour) + dt.timedelta(days=plan.days_ahead)).isoformat(),
            buyIn=float(plan.buy_in),
            prizePool=float(plan.prize_pool),
        )
        for plan in TOURNAMENTS
    ]
    return PokerTournamentsResponse(tournamentList=schedule)


@routes("getStats")
async def get_stats(call: Call) -> PlayerStats:
    rounds = call.player.game_rounds
    return PlayerStats(
        totalBets=float(money(sum((r.bet for r in rounds), Decimal(0)))),
        totalWins=float(money(sum((r.win for r in rounds), Decimal(0)))),
        gamesPlayed=len(rounds),
    )


# Bonus terms are not shown: a bonus is released once it has been wagered this many times.
WAGERING_MULTIPLE = 10


@routes("getPlayerWageringInfo")
async def get_player_wagering_info(call: Call) -> WageringInfo:
    player = call.player
    wallet = player.main
    requirement = player.wagering_requirement or wallet.bonus * WAGERING_MULTIPLE
    return WageringInfo(
        bonus=_money(wallet.bonus),
        lockedBonus=_money(wallet.locked_bonus),
        accumulatedBet=_money(player.accumulated_bet),
        balance=_money(wallet.cash),
        remainingBet=_money(max(Decimal(0), requirement - player.accumulated_bet)),
    )


# --- Wallets -----------------------------------------------------------------------------------


def _wallet_entry(wallet: Wallet) -> WalletEntry:
    return WalletEntry(
        wallet=WalletName(id=wallet.id, name=wallet.name),
        symbol=wallet.symbol,
        preferred=wallet.preferred,
        cash=_money(wallet.cash),
        bonus=_money(wallet.bonus),
        cashInPlay=_money(wallet.cash_in_play),
        bonusInPlay=_money(wallet.bonus_in_play),
        lockedBonus=_money(wallet.locked_bonus),
    )


@routes("balance")
async def balance(call: Call) -> BalanceResponse:
    # Deposits the provider approved since the last look are credited before showing money.
    wallets = sorted(cashier.settled(call).wallets.values(), key=lambda w: (not w.preferred, w.id))
    return BalanceResponse(values=[_wallet_entry(w) for w in wallets])


@routes("resetPlayMoneyBalance")
async def reset_play_money_balance(call: Call) -> PlatformReply:
    """Play money is not real money, so the ledger does not record it."""
    wallet = call.player.wallets[PLAYMONEY]
    wallet.cash = PLAYMONEY_START
    wallet.cash_in_play = Decimal("0.00")
    return PlatformReply(description="Play money balance reset")


# --- VIP club: levels ---------------------------------------------------------------------------

IST = dt.timezone(dt.timedelta(hours=5, minutes=30), "IST")  # the balance panel shows end dates in IST
LEVELS: tuple[PlayerLevel, ...] = (
    PlayerLevel(name="Bronze", priority=1, period="Hour", compPoints=0),
    PlayerLevel(name="Silver", priority=2, period="Week", compPoints=1000),
    PlayerLevel(name="Gold", priority=3, period="Month", compPoints=5000),
    PlayerLevel(name="Platinum", priority=4, period="Year", compPoints=20000),
    PlayerLevel(name="Diamond", priority=5, period="Year", compPoints=50000),
)


def _window(period: str, now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The current [start, end) of a counter's period."""
    if period == "Week":
        start = (now - dt.timedelta(days=now.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
        return start, start + dt.timedelta(days=7)
    if period == "Month":
        start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        return start, (start + dt.timedelta(days=32)).replace(day=1)
    if period == "Year":
        start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        return start, start.replace(year=start.year + 1)
    start = now.replace(minute=0, second=0, microsecond=0)
    return start, start + dt.timedelta(hours=1)


def _counter(player: Player, period: str, now: dt.datetime) -> LevelCounter:
    """Deposits and bets inside the window. Points carry no date in the sandbox, so every
    window counts all the points earned."""
    start, end = _window(period, now)
    low, high = start.timestamp(), end.timestamp()
    deposits = sum((d.amount for d in player.deposits if d.credited and low <= d.created < high), Decimal(0))
    bets = sum((r.bet for r in player.game_rounds if low <= r.started < high), Decimal(0))
    return LevelCounter(
        periodType=period,
        startDate=start.isoformat(timespec="seconds"),
        endDate=(end - dt.timedelta(seconds=1)).isoformat(timespec="seconds"),
        compPoints=float(player.comp_points_earned),
        deposits=float(money(deposits)),
        bets=float(money(bets)),
    )


def _lifetime_counter(player: Player) -> LevelCounter:
    """goldCounter's meaning is not shown: chosen as the lifetime totals, without an end."""
    return LevelCounter(
        periodType="Lifetime",
        compPoints=float(player.comp_points_earned),
        deposits=float(money(sum((d.amount for d in player.deposits if d.credited), Decimal(0)))),
        bets=float(money(sum((r.bet for r in player.game_rounds), Decimal(0)))),
    )


@routes("playerLevels")
async def player_levels(call: Call) -> PlayerLevelsResponse:
    player = call.player
    now = dt.datetime.now(IST)
    return PlayerLevelsResponse(
        playerLevelResponses=list(LEVELS),
        weeklyCounter=_counter(player, "Week", now),
        monthlyCounter=_counter(player, "Month", now),
        yearkyCounter=_counter(player, "Year", now),
        hourlyCounter=_counter(player, "Hour", now),
        goldCounter=_lifetime_counter(player),
    )


# --- VIP club: comp-point exchange --------------------------------------------------------------

POINTS_PER_BLOCK = 100
MINIMUM_POINTS = 1000
# Currency units one block of comp points buys, by site currency; others get 1.
BLOCK_VALUE: Mapping[str, Decimal] = {"INR": Decimal(1), "ARS": Decimal(10)}


def _rate(site: Site) -> ExchangeRate:
    value = BLOCK_VALUE.get(site.currency, Decimal(1))
    return ExchangeRate(
        currency=site.currency, compPoints=POINTS_PER_BLOCK, rate=float(value), minimumPoints=MINIMUM_POINTS
    )


@routes("exchangeRates")
async def exchange_rates(call: Call) -> ExchangeRatesResponse:
    return ExchangeRatesResponse(rates=[_rate(call.site)])


def _points_to_spend(request: ExchangeRequest, site: Site, points_held: Decimal) -> Decimal:
    """The points asked for, once they are an amount the player may exchange."""
    if request.currency not in (None, site.currency):
        raise failure(f"Comp points can only be exchanged for {site.currency}", "INVALID_CURRENCY")
    # Compared as floats first, so NaN and infinity are refused before becoming money.
    if not request.compPoints >= MINIMUM_POINTS:
        raise failure(f"Minimum {MINIMUM_POINTS} comp points can be exchanged", "BELOW_MINIMUM")
    if request.compPoints > float(points_held):
        raise failure("You don't have enough comp points", "INSUFFICIENT_POINTS")
    return money(request.compPoints)


@routes("exchange")
async def exchange(call: Call) -> ExchangeResponse:
    """Comp points become cash in the real-money wallet; lifetime points (the level) stay."""
    player = call.player
    points = player.wallets[COMPPOINTS]
    spent = _points_to_spend(call.body(ExchangeRequest), call.site, points.cash)
    cash = money(spent / POINTS_PER_BLOCK * BLOCK_VALUE.get(call.site.currency, Decimal(1)))
    points.cash -= spent
    player.main.cash += cash
    call.site.record(player, "compPointsExchange", cash, call.state.next_id("CPX"))
    return ExchangeResponse(
        description=f"{spent.normalize():f} comp points exchanged",
        cashCredited=float(cash),
        compPointsLeft=float(points.cash),
    )


# --- The Blackjack League -----------------------------------------------------------------------

LEAGUE = "Blackjack League"
LEAGUE_WEEKS = ((-1, "Finished"), (0, "Active"), (1, "Upcoming"))
LEAGUE_SIZE = 10
PRIZES = (Decimal(25000), Decimal(10000), Decimal(5000))


def _leaderboards(site: Site, today: dt.date) -> list[Leaderboard]:
    """Weekly editions, Monday to Sunday: last week's, this week's and next week's."""
    monday = today - dt.timedelta(days=today.weekday())
    boards = []
    for weeks, status in LEAGUE_WEEKS:
        start = monday + dt.timedelta(weeks=weeks)
        week = start.isocalendar()
        boards.append(
            Leaderboard(
                id=f"bjl-{site.site_id}-{week.year}w{week.week:02d}",
                name=f"{LEAGUE} {week.year} #{week.week}",
                startDate=start.isoformat(),
                endDate=(start + dt.timedelta(days=6)).isoformat(),
                status=status,
            )
        )
    return boards


def _participants(site: Site, board: Leaderboard, seed_value: int) -> list[LeaderboardParticipant]:
    """The same table for the same board and seed; an upcoming board has nobody yet."""
    if board.status == "Upcoming":
        return []
    rng = random.Random(f"{seed_value}:{board.id}")
    points = sorted((rng.randint(200, 9000) for _ in range(LEAGUE_SIZE)), reverse=True)
    names = [f"{rng.choice(seed.FIRST_NAMES)}{rng.randint(10, 99)}" for _ in range(LEAGUE_SIZE)]
    return [
        LeaderboardParticipant(
            rank=rank,
            nickname=name,
            points=float(score),
            prize=f"{site.symbol} {PRIZES[rank - 1]:,}" if rank <= len(PRIZES) else None,
        )
        for rank, (name, score) in enumerate(zip(names, points, strict=True), start=1)
    ]


@routes("leaderboardList")
async def leaderboard_list(call: Call) -> LeaderboardListResponse:
    return LeaderboardListResponse(leaderboards=_leaderboards(call.site, dt.date.today()))


@routes("leaderboardParticipants")
async def leaderboard_participants(call: Call) -> LeaderboardParticipantsResponse:
    request = call.body(LeaderboardParticipantsRequest)
    board = next((b for b in _leaderboards(call.site, dt.date.today()) if b.id == request.leaderboardId), None)
    if board is None:
        raise failure("Leaderboard not found", "LEADERBOARD_NOT_FOUND")
    return LeaderboardParticipantsResponse(participants=_participants(call.site, board, call.state.seed))
