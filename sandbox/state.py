"""The sandbox platform's in-memory state: sites, players, sessions, wallets, ledgers.

Money is kept as `Decimal` rounded to cents; every movement is written to the site's
ledger so tests can check that nothing was lost or doubled.
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

CENT = Decimal("0.01")
LANDED_ON: ContextVar[str | None] = ContextVar("landed_on", default=None)
"""The backend a sticky load balancer sent this call to (sandbox/served.py sets it while
`Wire.sticky` is on): a session lives on the backend that opened it."""


def money(value: float | int | str | Decimal) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class Wallet:
    id: int
    name: str
    symbol: str
    preferred: bool = False
    cash: Decimal = Decimal("0.00")
    bonus: Decimal = Decimal("0.00")
    cash_in_play: Decimal = Decimal("0.00")
    bonus_in_play: Decimal = Decimal("0.00")
    locked_bonus: Decimal = Decimal("0.00")


@dataclass
class BankAccountRecord:
    encoded_id: str
    account_number: str
    bank_name: str
    branch_name: str
    name_on_account: str
    account_type: str
    ifsc: str


@dataclass
class DocumentRecord:
    doc_type: str
    doc_number: str | None
    file_name: str
    size: int
    uploaded_on: str
    status: str = "Pending"


@dataclass
class DepositRecord:
    seque_no: str
    method: int
    amount: Decimal
    currency: str
    created: float
    status: str = "Started"
    """'Started', then '[PaymentOperationStatus: Approved]'; history shows Approved/Locked..."""
    pay_method: str | None = None
    txn_id: str | None = None
    credited: bool = False
    history_status: str = "Pending"
    approve_after: float | None = None
    """Wall time (time.time) from which the sandbox provider approves it; None: it waits
    (seeded history, or a scan-and-pay deposit whose transaction id is not yet given)."""


@dataclass
class CashoutRecord:
    cashout_id: str
    amount: Decimal
    currency: str
    method: str
    created: float
    status: str = "Pending"
    cancelled_amount: Decimal = Decimal("0.00")
    paid_amount: Decimal = Decimal("0.00")


@dataclass
class GameRound:
    started: float
    ended: float
    name: str
    initial_balance: Decimal
    bet: Decimal
    buy_in: Decimal
    payouts: Decimal
    win: Decimal
    closing_balance: Decimal


@dataclass
class BetRecord:
    """A placed sportsbook coupon; settlement is not shown, so it stays open."""

    coupon_id: str
    placed: float
    stake: Decimal
    total_odds: float
    potential_win: Decimal
    selection_ids: tuple[str, ...]
    status: str = "Open"


@dataclass
class Player:
    login: str
    password: str
    email: str
    nickname: str
    first_name: str
    last_name: str
    phone: str
    city: str
    country: str
    address: str
    state: str
    ssn: str | None
    currency: str
    wallets: dict[str, Wallet]
    birthday: str = "1990-01-01"
    playertype: str = "REAL"
    deposits_flag: int = 1
    withdrawal_flag: int = 1
    verified: bool = False
    verify_token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    bank_accounts: dict[str, BankAccountRecord] = field(default_factory=dict)
    documents: list[DocumentRecord] = field(default_factory=list)
    deposits: list[DepositRecord] = field(default_factory=list)
    cashouts: list[CashoutRecord] = field(default_factory=list)
    game_rounds: list[GameRound] = field(default_factory=list)
    comp_points_earned: Decimal = Decimal("0.00")
    accumulated_bet: Decimal = Decimal("0.00")
    wagering_requirement: Decimal = Decimal("0.00")
    bets: list[BetRecord] = field(default_factory=list)

    @property
    def main(self) -> Wallet:
        return self.wallets[self.currency]


@dataclass
class Session:
    token: str
    login: str
    created: float
    last_seen: float
    backend: str | None = None
    """The backend that opened it behind a sticky load balancer (None: no balancer then)."""


@dataclass
class LedgerEntry:
    at: float
    login: str
    kind: str
    amount: Decimal
    balance_after: Decimal
    reference: str


@dataclass
class Site:
    """One white-label skin as the platform knows it."""

    site_id: str
    name: str
    currency: str
    symbol: str
    face: str
    players: dict[str, Player] = field(default_factory=dict)
    sessions: dict[str, Session] = field(default_factory=dict)
    providers: dict[str, bool] = field(default_factory=dict)
    ledger: list[LedgerEntry] = field(default_factory=list)
    contact_messages: list[dict[str, Any]] = field(default_factory=list)
    affiliate_hits: Counter[str] = field(default_factory=Counter)
    affiliate_postbacks: list[dict[str, str]] = field(default_factory=list)
    content: dict[str, Any] = field(default_factory=dict)
    """Content collections (contract Structs keyed by catalogue route name) and the sports
    fixtures under "sports", built by `seed`."""

    def player(self, login: str) -> Player | None:
        return self.players.get(login.lower())

    def record(self, player: Player, kind: str, amount: Decimal, reference: str) -> None:
        self.ledger.append(LedgerEntry(time.time(), player.login, kind, amount, player.main.cash, reference))


@dataclass
class Fault:
    """Injected misbehaviour for one route name (or '*' for every route)."""

    latency_ms: int = 0
    error_rate: float = 0.0
    error_status: int = 500
    timeout: bool = False
    session_expired: bool = False
    code: str | None = "INJECTED_FAULT"
    """The failure body's code (None leaves it out: a refusal without a code)."""
    description: str | None = None
    """The failure body's description (None: 'injected fault on <route>')."""
    remaining: int | None = None
    """How many more calls it applies to; None means until cleared."""
    headers: dict[str, str] = field(default_factory=dict)
    """Extra headers on the answers."""
    body: bytes | None = None
    """The answer itself, as given (a hostile platform's page, script or SVG), with `body_type`."""
    body_type: str | None = None


@dataclass
class Wire:
    """How the platform is served (sandbox/served.py): what nginx and a load balancer in front
    of it do to its answers. Set from `SandboxSettings`, changed by `PUT /_sandbox/wire`."""

    compress: bool = True
    keepalive_requests: int = 100
    """Requests a connection carries before its answer says `connection: close` (0: no limit)."""
    keepalive_timeout_s: float = 5.0
    """Seconds an idle connection is kept (uvicorn's `timeout_keep_alive`)."""
    balancer_errors: bool = False
    sticky: bool = False
    trickle_ms: int = 0
    extra_fields: bool = False


@dataclass
class PlatformState:
    seed: int
    idle_timeout_s: float
    deposit_approval_delay_s: float
    public_url: str | None = None
    """Where a browser reaches the sandbox (demo game pages); None: the request's own base URL."""
    sites: dict[str, Site] = field(default_factory=dict)
    faults: dict[str, Fault] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)
    """Calls answered, by '<site id> <route name>' and by '<route name>'."""
    wire: Wire = field(default_factory=Wire)
    wire_counts: Counter[str] = field(default_factory=Counter)
    """What the wire did: `stickyMisses` (a session's call sent to another backend),
    `keepaliveCloses` (connections closed after their last request)."""
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(100001))

    def next_id(self, prefix: str = "") -> str:
        return f"{prefix}{next(self._ids)}"

    def open_session(self, site: Site, player: Player) -> Session:
        now = time.monotonic()
        session = Session(secrets.token_hex(16), player.login, now, now, LANDED_ON.get())
        site.sessions[session.token] = session
        return session

    def find_session(self, site: Site, token: str | None) -> Session | None:
        """The live session for a token; idle sessions expire and are forgotten."""
        if not token:
            return None
        session = site.sessions.get(token)
        if session is None:
            return None
        landed = LANDED_ON.get()
        if landed is not None and session.backend is not None and session.backend != landed:
            # Another backend behind the balancer: it has never heard of the session.
            self.wire_counts["stickyMisses"] += 1
            return None
        now = time.monotonic()
        if now - session.last_seen > self.idle_timeout_s:
            del site.sessions[token]
            return None
        session.last_seen = now
        return session

    def expire_sessions(self, site: Site, login: str | None = None) -> int:
        doomed = [t for t, s in site.sessions.items() if login is None or s.login == login.lower()]
        for token in doomed:
            del site.sessions[token]
        return len(doomed)
