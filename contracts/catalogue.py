"""The route catalogue: every platform call the product makes (the call lists of both product
specs, plus game launches and content), with everything the gateway does differently per route.

The gateway forwards only these routes; the sandbox implements every one of them; the
SPA's types come from the request/response types named here.

Route classes (`Route.policy`, the only meaning of "policy" in the project):
- `content`: public GET, anonymous, cacheable per skin + path + query.
- `read`: per-session (or per-visitor) read, coalescable, safe to join.
- `exclusive`: login/register/logout/cashier/bank/password/withdraw and other
  account-changing calls: never retried, one at a time per session; an identical
  duplicate joins the first, a different one is refused while one is in flight.

A class gives a route its defaults (`CLASS_FACTS`: caching, joining, exclusivity, retries,
deadline); an entry overrides any of them by keyword, and adds the facts of its own: a rate
limit class, session effects, the login fields of its body, a skin's sports feed, an answer that
carries a secret (`SECRET_ANSWERS`: never compressed). The gateway reads all of these from the
route; no route name appears in its code.

Paths that carry the session id hold a `{wsession}` placeholder. Only the gateway
fills it; the browser calls the path without that segment (`public_path`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any, Literal

import msgspec

from contracts import cashier, content, games, history, player, sports, wallet
from contracts.base import PlatformReply

Method = Literal["GET", "POST"]
Upstream = Literal["api", "capi", "sbapi", "rest"]
RouteClass = Literal["content", "read", "exclusive"]
UPSTREAMS: tuple[Upstream, ...] = ("api", "capi", "sbapi", "rest")
PREFIXES: Mapping[str, Upstream] = {f"/{upstream}/": upstream for upstream in UPSTREAMS}
"""The URL prefix of each upstream, on the public site and on the platform alike."""
WSESSION = "{wsession}"

LimitClass = Literal["login-like", "registration", "password-reset", "cashier", "adoption", "events"]
"""The rate limits a route's calls count against (`gateway.state.ratelimit` holds the numbers):
`login-like` guessing (per address, per login name or device), `registration` and
`password-reset` (per address, and login name), `cashier` (per session and route), and
`adoption` of a session id from a URL (`/bff/session/adopt`, a gateway endpoint); `events` is
the gateway's own `/bff/events` (connects per address), beside the routes' classes."""
SessionEffect = Literal["starts", "ends"]
"""`starts`: the answer carries the upstream session id, which the gateway takes into the
session and strips from the browser's copy (its own id rotated); `ends`: the session is logged out."""
Retries = Literal["never", "unsent", "any"]
"""When a failed attempt may go again: `never` (money and accounts), `unsent` (only when the
platform never read it: no connection, or a kept-alive one it had dropped), `any` (GETs: any
failure that says nothing of the call's effect, and 502/503/504)."""
Joins = Literal["process", "instances"]
"""Where identical calls in flight share one call: in this process only, or across instances."""
BodyCap = Literal["json", "upload"]
"""Which of the listener's body caps applies (`MAX_JSON_BODY`, `MAX_UPLOAD_BODY`)."""

_PARAM = re.compile(r"\{(\w+)\}")


class Caching(msgspec.Struct, frozen=True, kw_only=True):
    """How the gateway keeps a route's content answers, where the platform's `Cache-Control`
    says nothing (None: the gateway's configured default for all routes)."""

    ttl_s: float | None = None
    stale_while_revalidate_s: float | None = None
    stale_if_error_s: float | None = None


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """How a route is made to check that a base URL speaks the platform (`python -m gateway
    check-upstream`, the console's change preview, an upstream's health): only routes that need no
    player and change nothing carry one. The example call is the route with this query and body."""

    query: str = ""
    """Appended to the path as it is (Strapi's `filters[...]` included)."""
    body: str = "{}"
    """A POST's JSON body, as text (a route is hashable); `{}` as the platform's empty reads send."""
    refused: bool = False
    """The route needs a player: made without one, its documented answer is the platform's
    `SESSION_EXPIRED` refusal (HTTP 200, `success: false`), and that is what is checked. For an
    upstream (`rest`) none of whose calls is anonymous."""


class Route(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    name: str
    method: Method
    upstream: Upstream
    path: str
    policy: RouteClass
    """The route class."""
    auth: bool
    request: Any = None
    response: Any = PlatformReply
    multipart: bool = False
    binary: bool = False
    """The response is not JSON (an image, a page)."""
    summary: str = ""
    # What the gateway does with the route's calls (defaults per class: `CLASS_FACTS`).
    cache: Caching | None = None
    """Content kept in the gateway's cache (None: never kept)."""
    joins: Joins = "process"
    exclusive: bool = False
    """One call at a time per session and route; a different one meanwhile is refused (409)."""
    retries: Retries = "never"
    deadline: RouteClass = "read"
    """The class whose timeouts and deadline the call gets (`UPSTREAM_TIMEOUTS`)."""
    limit: LimitClass | None = None
    session: SessionEffect | None = None
    login_fields: bool = False
    """The body names the player (`login`, and `rememberMe`, which the gateway keeps itself)."""
    sports_feed: bool = False
    """A skin with its own sports feed URL gets this route's answers there (the whole URL)."""
    body: BodyCap = "json"
    secret_answer: bool = False
    """The answer carries a secret beside something the request named: never compressed (BREACH)."""
    media_types: tuple[str, ...] = ()
    """A binary route's: the types its answers may have (`IMAGE_TYPES` by default); anything else
    the platform sends is refused. A JSON route's answers are always `application/json`."""
    upload_types: tuple[str, ...] = ()
    """An upload's: the types its file may be, checked against the file's first bytes."""
    gateway_reads: bool = False
    """The gateway itself reads this route's answers (the balance stream, its `/bff/*` calls, a
    session's start, a rate limit's `success`, a money call's outcome): the platform's gzip never
    passes through them, and `gateway.upstream.platform` asks no route that does not say so. Set
    by `_route` for the facts that imply it; an entry sets it for a reader of its own."""
    check: Check | None = None
    """How the route is made to check a base URL (None: it needs a player, records or sends something)."""

    @property
    def carries_session_in_path(self) -> bool:
        return WSESSION in self.path

    @cached_property
    def public_path(self) -> str:
        """The path the browser calls: the `{wsession}` segment is the gateway's to add."""
        return self.path.replace("/" + WSESSION, "")

    @cached_property
    def params(self) -> tuple[str, ...]:
        return tuple(_PARAM.findall(self.public_path))

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """Matches a public path; each `{param}` is one non-empty segment."""
        parts = _PARAM.split(self.public_path)
        regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)" for i, part in enumerate(parts))
        return re.compile(f"^{regex}$")

    def upstream_path(self, params: Mapping[str, str], wsession: str | None = None) -> str:
        """The upstream path with its parameters (and, where it has one, the session) filled."""
        values = dict(params)
        if self.carries_session_in_path:
            if not wsession:
                raise ValueError(f"{self.name} carries the session in its path")
            values["wsession"] = wsession
        return _PARAM.sub(lambda m: values[m.group(1)], self.path)


CLASS_FACTS: Mapping[RouteClass, Mapping[str, Any]] = {
    # Anonymous content: kept in the cache, joined across instances. (Retries: `retries_of`.)
    "content": {"cache": Caching(), "joins": "instances", "deadline": "content"},
    # One player's reads: joined in this process only (across instances a flight costs two
    # store round trips on every read, to save at most one platform call per instance).
    "read": {"joins": "process", "deadline": "read"},
    # Money and accounts: one at a time per session, joined across instances, never retried.
    "exclusive": {"joins": "instances", "exclusive": True, "deadline": "exclusive"},
}


def retries_of(policy: RouteClass, method: Method) -> Retries:
    """A class's retries: money and accounts never; GETs on any failure that says nothing of the
    call's effect; the platform's POST reads only when it never read them."""
    if policy == "exclusive":
        return "never"
    return "any" if method == "GET" else "unsent"


_SECRET_ACCOUNTS = ("login", "register", "logout")
"""They set the gateway's cookies; login and register echo the login name."""
_LAUNCHES = (
    "ezugiLaunch",
    "habaneroLaunch",
    "endorphinaLaunch",
    "btiLaunch",
    "pragmaticLaunch",
    "mancalaLaunch",
    "rubyPlayLaunch",
    "vivoLaunch",
    "vibraLaunch",
    "genericLaunch",
    "mrGameURL",
    "mPlayGameURL",
)
"""A launch token, or a URL holding one, beside the game the request named."""
SECRET_ANSWER_NAMES = frozenset({*_SECRET_ACCOUNTS, *_LAUNCHES, "sportsAuth", "buy", "Mbuy"})
"""The platform's routes whose answers carry a secret (a launch token or a URL holding one, a
session id, the payment form's fields) beside something the request named: never compressed
(BREACH; `Route.secret_answer`, which a new route may also set in its own entry). The gateway's
own `/bff/session` and `/bff/session/adopt` are never compressed either (they set cookies)."""


_MONEY_CALL_NAMES = (
    "buy",
    "Mbuy",
    "depositCallBack",
    "cashout",
    "cashout12",
    "mercadoCashout",
    "interKassaCashout",
    "cancelWithdrawRequest",
    "exchange",
    "resetPlayMoneyBalance",
)
"""The player's own money calls: the balance stream reads whether they succeeded (`MONEY_CALLS`)."""


IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/svg+xml")
DOCUMENT_TYPES = ("application/pdf",)
ATTACHED_TYPES = frozenset({"image/svg+xml", "application/pdf"})
"""Types a browser would open as a document of the site's origin when navigated to (an SVG can hold
script): served as attachments, beside the sandboxing CSP every proxied answer carries."""


def _route(method: Method, name: str, path: str, policy: RouteClass, auth: bool, **kw: Any) -> Route:
    """A route with its class's facts, overridden by any given here."""
    facts = dict(CLASS_FACTS[policy])
    facts["retries"] = retries_of(policy, method)
    facts["secret_answer"] = name in SECRET_ANSWER_NAMES
    if kw.get("multipart"):
        facts["body"] = "upload"
    if kw.get("binary"):
        facts["media_types"] = IMAGE_TYPES
    if kw.get("session") or kw.get("limit") or name in _MONEY_CALL_NAMES:
        facts["gateway_reads"] = True
    upstream = PREFIXES["/" + path.split("/")[1] + "/"]
    return Route(name=name, method=method, upstream=upstream, path=path, policy=policy, auth=auth, **{**facts, **kw})


def _post(
    name: str, path: str, policy: RouteClass, auth: bool, request: Any = None, response: Any = PlatformReply, **kw: Any
) -> Route:
    return _route("POST", name, path, policy, auth, request=request, response=response, **kw)


def _get(name: str, path: str, policy: RouteClass, auth: bool, response: Any = PlatformReply, **kw: Any) -> Route:
    return _route("GET", name, path, policy, auth, response=response, **kw)


ANONYMOUS = Check()
"""The route made as the SPA makes it for a visitor: no query, an empty body."""
IN_SPANISH = Check(query="filters[locale][$eq]=es")
"""A CMS list as the SPA asks for it, in the default language."""

ROUTES: tuple[Route, ...] = (
    # --- Player and account (the site-shell and cashier-account specs' call lists) --------
    _post(
        "login",
        "/api/player/login",
        "exclusive",
        False,
        player.LoginRequest,
        player.LoginResponse,
        limit="login-like",
        session="starts",
        login_fields=True,
    ),
    _post("logout", "/api/player/logout", "exclusive", True, session="ends"),
    _post(
        "register",
        "/api/player/register",
        "exclusive",
        False,
        player.RegisterRequest,
        player.RegisterResponse,
        limit="registration",
        session="starts",
        login_fields=True,
    ),
    _post(
        "generateCaptcha",
        "/api/player/generateCaptcha",
        "read",
        False,
        binary=True,
        summary="An image blob (SVG).",
    ),
    # getCountries is a public read; POST as the platform's reads are.
    _post("getCountries", "/api/player/getCountries", "read", False, None, player.CountriesResponse, check=ANONYMOUS),
    _post(
        "forgotPassword",
        "/api/player/forgotPassword",
        "exclusive",
        False,
        player.ForgotPasswordRequest,
        limit="password-reset",
        login_fields=True,
    ),
    _post("generateOTP", "/api/player/generateOTP", "exclusive", False, player.OtpRequest),
    _post(
        "verifyAccount",
        "/api/player/verifyAccount",
        "exclusive",
        False,
        player.VerifyAccountRequest,
        player.VerifyAccountResponse,
    ),
    # Contact works for visitors and players: the session is sent when there is one.
    _post("contactUs", "/api/player/contactUs", "exclusive", False, player.ContactRequest),
    _post("affiliateHit", "/api/affiliateHistory/getHitCountSummary", "read", False, player.AffiliateHitRequest),
    _post("mrGameURL", "/api/player/mrGameURL", "read", True, games.MrGameUrlRequest, games.GenericLaunch),
    # getProfile: what `/bff/session/adopt` asks to confirm a session id it is handed.
    _post("getProfile", "/api/player/getProfile", "read", True, None, player.Profile, gateway_reads=True),
    _post("updateProfile", "/api/player/updateProfile", "exclusive", True, player.UpdateProfileRequest),
    _post("updatePassword", "/api/player/updatePassword", "exclusive", True, player.UpdatePasswordRequest),
    _post("getLaunchURLS", "/api/player/getLaunchURLS", "read", True, None, player.LaunchUrls),
    _post(
        "getPokerTournamentsList",
        "/api/player/getPokerTournamentsList",
        "read",
        True,
        None,
        player.PokerTournamentsResponse,
    ),
    _post("getStats", "/api/player/getStats", "read", True, None, player.PlayerStats),
    _post(
        "getCurrencies", "/api/player/getCurrencies", "read", False, None, player.CurrenciesResponse, check=ANONYMOUS
    ),
    _post("getGames", "/api/player/getGames", "read", False, None, player.GamesResponse, check=ANONYMOUS),
    _post("mPlayGameURL", "/api/player/mPlayGameURL", "read", True, games.MrGameUrlRequest, games.GenericLaunch),
    _post(
        "getPlayerProviderList",
        "/api/player/getPlayerProviderList",
        "read",
        True,
        player.ProviderPermissionsRequest,
        list[player.ProviderPermission],
    ),
    _post(
        "uploadFile",
        "/api/player/uploadFile",
        "exclusive",
        True,
        None,
        player.UploadFileResponse,
        multipart=True,
        upload_types=("image/jpeg", "image/png", "application/pdf"),
        summary="multipart: file, docType (0-3), docNumber",
    ),
    _post("getDocuments", "/api/player/getDocuments", "read", True, None, player.DocumentsResponse),
    _post("getPlayerWageringInfo", "/api/player/getPlayerWageringInfo", "read", True, None, player.WageringInfo),
    # Pre-login provider list: path and method not shown beyond this one call.
    _post(
        "getProviders",
        "/api/agentAccount/getProviders",
        "read",
        False,
        None,
        list[player.ProviderStatus],
        check=ANONYMOUS,
    ),
    _post("playerLevels", "/api/cp/playerLevels", "read", True, None, wallet.PlayerLevelsResponse),
    _post("exchangeRates", "/api/cp/exchangeRates", "read", True, None, wallet.ExchangeRatesResponse),
    _post(
        "exchange",
        "/api/cp/exchange",
        "exclusive",
        True,
        wallet.ExchangeRequest,
        wallet.ExchangeResponse,
        limit="cashier",
    ),
    # The Blackjack League is public: its lists need no session.
    _post(
        "leaderboardList", "/api/leaderboard/list", "read", False, None, wallet.LeaderboardListResponse, check=ANONYMOUS
    ),
    _post(
        "leaderboardParticipants",
        "/api/leaderboard/getParticipants",
        "read",
        False,
        wallet.LeaderboardParticipantsRequest,
        wallet.LeaderboardParticipantsResponse,
    ),
    # --- Cashier (/api/cashier/) -----------------------------------------------------
    # balance: what the balance stream polls, and reads in a proxied read of it.
    _post("balance", "/api/cashier/balance", "read", True, None, wallet.BalanceResponse, gateway_reads=True),
    _post("resetPlayMoneyBalance", "/api/cashier/resetPlayMoneyBalance", "exclusive", True),
    _post(
        "getPaymentSystems",
        "/api/cashier/getPaymentSystems",
        "read",
        True,
        None,
        cashier.PaymentSystemsResponse,
        summary="query: pgid",
    ),
    _post(
        "depositSystems",
        "/api/cashier/depositSystems",
        "read",
        True,
        None,
        cashier.PaymentSystemsResponse,
        summary="query: pgid",
    ),
    _post(
        "getCashOutInfo",
        "/api/cashier/getCashOutInfo",
        "read",
        True,
        None,
        cashier.CashOutInfo,
        summary="query: pgid",
    ),
    # Withdrawal submits. The spec leaves the paykassma and Argentine paths 'not shown':
    # paykassma (form A) -> cashout12, Argentine (form B) -> mercadoCashout,
    # bank (India, interkassa-style payload) -> interKassaCashout, IMPS/Transact -> cashout.
    _post(
        "cashout",
        "/api/cashier/cashout",
        "exclusive",
        True,
        cashier.CashoutRequest,
        cashier.WithdrawResponse,
        limit="cashier",
    ),
    _post(
        "cashout12",
        "/api/cashier/cashout12",
        "exclusive",
        True,
        cashier.WithdrawFormA,
        cashier.WithdrawResponse,
        limit="cashier",
    ),
    _post(
        "mercadoCashout",
        "/api/cashier/mercadoCashout",
        "exclusive",
        True,
        cashier.WithdrawFormB,
        cashier.WithdrawResponse,
        limit="cashier",
    ),
    _post(
        "interKassaCashout",
        "/api/cashier/interKassaCashout",
        "exclusive",
        True,
        cashier.BankWithdrawRequest,
        cashier.WithdrawResponse,
        limit="cashier",
    ),
    _post(
        "buy", "/api/cashier/buy", "exclusive", True, cashier.DepositRequest, cashier.DepositResponse, limit="cashier"
    ),
    _post(
        "Mbuy", "/api/cashier/Mbuy", "exclusive", True, cashier.DepositRequest, cashier.DepositResponse, limit="cashier"
    ),
    # depositCallBack: scan-and-pay confirmation ({seque_no, txnId} -> status, message).
    _post(
        "depositCallBack",
        "/api/cashier/depositCallBack",
        "exclusive",
        True,
        cashier.TransactionDetailRequest,
        cashier.TransactionDetail,
        limit="cashier",
    ),
    # depositCallBackStatus: the postback status check ({sid} -> status, comments), polled.
    _post(
        "depositCallBackStatus",
        "/api/cashier/depositCallBackStatus",
        "read",
        True,
        cashier.PostbackStatusRequest,
        cashier.PostbackStatus,
    ),
    # mercadoDepositCallBack: the payment status call to the provider (method not shown: POST).
    _post(
        "mercadoDepositCallBack",
        "/api/cashier/mercadoDepositCallBack",
        "read",
        True,
        cashier.PostbackStatusRequest,
        cashier.TransactionDetail,
    ),
    # Payment redirect data (path not shown): the gateway's redirect endpoint asks this.
    _post(
        "paymentRedirect",
        "/api/cashier/paymentRedirect",
        "read",
        True,
        cashier.PaymentRedirectRequest,
        cashier.PaymentRedirect,
        gateway_reads=True,
    ),
    _post(
        "getOpenWithdrawRequests",
        "/api/cashier/getOpenWithdrawRequests",
        "read",
        True,
        None,
        cashier.OpenWithdrawalsResponse,
    ),
    _post(
        "cancelWithdrawRequest",
        "/api/cashier/cancelWithdrawRequest",
        "exclusive",
        True,
        cashier.CancelWithdrawRequest,
        limit="cashier",
    ),
    _post("addBankAccount", "/api/cashier/addBankAccount", "exclusive", True, cashier.BankAccount, limit="cashier"),
    _post("getBankAccounts", "/api/cashier/getBankAccounts", "read", True, None, cashier.BankAccountsResponse),
    _post(
        "deleteBankAccounts",
        "/api/cashier/deleteBankAccounts",
        "exclusive",
        True,
        cashier.DeleteBankAccountsRequest,
        limit="cashier",
    ),
    _post(
        "getPaymentMethods",
        "/api/cashier/getPaymentMethods",
        "read",
        True,
        None,
        cashier.PaymentMethodsResponse,
    ),
    # --- History -----------------------------------------------------------------------
    _post(
        "transactionHistory",
        "/api/history/transactionCheck",
        "read",
        True,
        history.TransactionHistoryRequest,
        history.TransactionHistoryResponse,
        gateway_reads=True,  # the reality check's deposits and withdrawals (gateway.edge.reality)
    ),
    _post(
        "gameHistory",
        "/api/history/game",
        "read",
        True,
        history.GameHistoryRequest,
        history.GameHistoryResponse,
    ),
    _post(
        "remoteGamesHistory",
        "/api/history/remoteGames",
        "read",
        True,
        history.GameHistoryRequest,
        history.RemoteGamesResponse,
    ),
    # --- Game launches (/rest) -------------------------------------------------------
    _get("ezugiLaunch", "/rest/ezugi/session/{wsession}", "read", True, games.EzugiLaunch),
    _get("habaneroLaunch", "/rest/habanero/session/{wsession}/{gameId}", "read", True, games.ProviderUrlLaunch),
    _get(
        "endorphinaLaunch",
        "/rest/endorphina/endorphinaUrl/{wsession}/{gameId}",
        "read",
        True,
        games.ProviderUrlLaunch,
    ),
    _get("btiLaunch", "/rest/bti/btiToken/{wsession}", "read", True, games.BtiLaunch),
    _post(
        "pragmaticLaunch",
        "/rest/pp/ppToken/{gameId}",
        "read",
        True,
        games.ProviderGameRequest,
        games.PragmaticLaunch,
    ),
    _post(
        "mancalaLaunch",
        "/rest/mancala/getToken/{Id}",
        "read",
        True,
        games.ProviderGameRequest,
        games.MancalaLaunch,
    ),
    # Not shown: ruby play, vivo, vibra and the generic launcher paths. Chosen below.
    _post(
        "rubyPlayLaunch",
        "/rest/rubyplay/launch/{gameId}",
        "read",
        True,
        games.ProviderGameRequest,
        games.RubyPlayLaunch,
    ),
    _post(
        "vivoLaunch",
        "/rest/vivo/session",
        "read",
        True,
        games.ProviderGameRequest,
        games.LiveCasinoSession,
        check=Check(body='{"gameId": "", "provider": "vivo"}', refused=True),
    ),
    _post("vibraLaunch", "/rest/vibra/launch", "read", True, games.ProviderGameRequest, games.GenericLaunch),
    _post("genericLaunch", "/rest/game/launch", "read", True, games.GameLaunchRequest, games.GenericLaunch),
    _post("ticketEmail", "/rest/bet/email/ticket", "exclusive", True, sports.TicketEmailRequest),
    # --- Content (/capi, Strapi) -------------------------------------------------------
    _get("homeBanners", "/capi/home-banners", "content", False, content.HomeBanners, check=IN_SPANISH),
    _get("lobbyBanners", "/capi/lobby-slot-images", "content", False, content.LobbyBanners, check=ANONYMOUS),
    _get("footerBanners", "/capi/footer-slot-images", "content", False, content.FooterBanners, check=ANONYMOUS),
    _get("eventBanners", "/capi/event-banners", "content", False, content.EventBanners, check=ANONYMOUS),
    _get("pokerBanners", "/capi/poker-banners", "content", False, content.PokerBanners, check=ANONYMOUS),
    _get(
        "gamesLists",
        "/capi/games-lists",
        "content",
        False,
        content.GamesLists,
        summary="filters[locale][$eq], filters[status][$eq], filters[gameProviderName][$eq], filters[category][$eq]",
        check=IN_SPANISH,
    ),
    _get("newReels", "/capi/new-reels", "content", False, content.ReelDealsList, check=ANONYMOUS),
    _get("headerLinks", "/capi/header-links", "content", False, content.HeaderLinks, check=ANONYMOUS),
    _get(
        "faqs",
        "/capi/faqs",
        "content",
        False,
        content.Faqs,
        summary="filters[locale][$eq], filters[status][$eq]",
        check=IN_SPANISH,
    ),
    _get(
        "media",
        "/capi/uploads/{file}",
        "content",
        False,
        None,
        binary=True,
        summary="CMS media (images, and documents such as the terms as PDF).",
        media_types=(*IMAGE_TYPES, *DOCUMENT_TYPES),
        cache=Caching(ttl_s=3600.0),
    ),
    # --- Sportsbook (/sbapi, BTi) ------------------------------------------------------
    # The combined events call's path is not shown: chosen GET /sbapi/sports/events?lang=.
    _get(
        "sportsEvents",
        "/sbapi/sports/events",
        "content",
        False,
        sports.SportEvents,
        summary="query: lang (es, pt, en), sport (optional)",
        cache=Caching(ttl_s=60.0),
        sports_feed=True,
        check=Check(query="lang=es"),
    ),
    _get("sportsList", "/sbapi/sports/sports", "content", False, sports.SportsList, check=ANONYMOUS),
    _post("betslip", "/sbapi/bets/betslip", "read", True, sports.BetslipRequest, sports.Betslip),
    _post("anonymousBet", "/sbapi/bets/anonymousbet", "read", False, sports.BetslipRequest, sports.Betslip),
    _post("sportsBonus", "/sbapi/bets/bonus", "read", True, None, sports.SportsbookBonus),
    _post("coupon", "/sbapi/bets/coupon", "exclusive", True, sports.CouponRequest, sports.Coupon),
    _post("getBets", "/sbapi/bets/getbets", "read", True, None, sports.BetsResponse),
    _post("sportsAuth", "/sbapi/auth/remote", "read", True, None, sports.RemoteAuth),
)

ROUTES_BY_NAME: Mapping[str, Route] = {route.name: route for route in ROUTES}
SECRET_ANSWERS = frozenset(route.name for route in ROUTES if route.secret_answer)
"""Every route whose answer is never compressed: those named above and any whose entry says so."""
PROFILE = ROUTES_BY_NAME["getProfile"]
"""What the gateway asks to confirm a session id it is handed (`/bff/session/adopt`)."""
PAYMENT_REDIRECT = ROUTES_BY_NAME["paymentRedirect"]
"""What the gateway asks for a deposit's payment page (`/bff/pay/{seque_no}`)."""
BALANCE = ROUTES_BY_NAME["balance"]
"""The player's balance: what the balance stream polls, and a proxied read of it tells the stream."""
TRANSACTION_HISTORY = ROUTES_BY_NAME["transactionHistory"]
"""The player's deposits and cashouts: what a reality check's figures are read from."""
CHECKS: Mapping[Upstream, tuple[Route, ...]] = {
    upstream: tuple(route for route in ROUTES if route.upstream == upstream and route.check is not None)
    for upstream in UPSTREAMS
}
"""Per upstream, the documented calls a base URL is checked with (those whose entry has a `check`)."""
HEALTH: Mapping[Upstream, Route] = {
    "api": ROUTES_BY_NAME["getCountries"],
    "capi": ROUTES_BY_NAME["headerLinks"],
    "sbapi": ROUTES_BY_NAME["sportsList"],
    "rest": ROUTES_BY_NAME["vivoLaunch"],
}
"""Per upstream, the documented call its health is checked with when the skins file names none:
a small answer, asked every few seconds while someone looks."""
MONEY_CALLS = frozenset(ROUTES_BY_NAME[name] for name in _MONEY_CALL_NAMES)
"""The player's own money calls: a success has the balance stream ask the platform at once."""


class Catalogue:
    """Finds the route for a method and a public path, by upstream prefix first."""

    def __init__(self, routes: tuple[Route, ...] = ROUTES) -> None:
        self._static: dict[tuple[str, str], Route] = {}
        self._templated: dict[Upstream, list[Route]] = {u: [] for u in UPSTREAMS}
        for route in routes:
            if route.params:
                self._templated[route.upstream].append(route)
            else:
                self._static[(route.method, route.public_path)] = route

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        route = self._static.get((method, path))
        if route is not None:
            return route, {}
        upstream = upstream_of(path)
        if upstream is None:
            return None
        for candidate in self._templated[upstream]:
            if candidate.method != method:
                continue
            found = candidate.pattern.match(path)
            if found is not None:
                return candidate, found.groupdict()
        return None

    def __iter__(self) -> Iterator[Route]:
        yield from self._static.values()
        for routes in self._templated.values():
            yield from routes


def upstream_of(path: str) -> Upstream | None:
    for prefix, upstream in PREFIXES.items():
        if path.startswith(prefix):
            return upstream
    return None
