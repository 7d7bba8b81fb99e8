"""Deterministic demo data: two skins, their players, providers, content and events.

Everything random comes from one `random.Random(seed)`, so the same seed gives the same
platform. The demo players are listed in docs/platform-contract.md.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from decimal import Decimal

from sandbox import content, sports
from sandbox.state import (
    CashoutRecord,
    DepositRecord,
    GameRound,
    PlatformState,
    Player,
    Site,
    Wallet,
    money,
)

# Every provider the spec names. Status True/1 enables the areas it gates.
PROVIDERS = (
    "bti",
    "caballo",
    "vivogaming",
    "pragmaticplay",
    "mancala",
    "pragmaticplaylivecasino",
    "evenbetpoker",
    "rubyplay",
    "ezugi",
    "evolution",
    "habanero",
    "endorphina",
    "vibra",
)


@dataclass(frozen=True)
class SiteSeed:
    site_id: str
    name: str
    currency: str
    symbol: str
    face: str
    disabled_providers: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerSeed:
    login: str
    password: str
    cash: str
    bonus: str = "0"
    comp_points: str = "0"
    deposits_flag: int = 1
    withdrawal_flag: int = 1


SITES = (
    SiteSeed("aurora", "Aurora Casino", "INR", "Bs.", "AURORA"),
    SiteSeed("pampa", "Pampa Bet", "ARS", "$", "PAMPA", disabled_providers=("caballo", "evenbetpoker")),
)

PLAYERS: dict[str, tuple[PlayerSeed, ...]] = {
    "aurora": (
        PlayerSeed("demo1", "demo123", cash="5000", bonus="250", comp_points="1200"),
        PlayerSeed("vip7", "vip12345", cash="250000", bonus="5000", comp_points="64000"),
        PlayerSeed("nocash", "nocash123", cash="0", deposits_flag=0, withdrawal_flag=0),
    ),
    "pampa": (PlayerSeed("pampa1", "pampa123", cash="80000", bonus="1000", comp_points="300"),),
}

FIRST_NAMES = ("Lucia", "Mateo", "Sofia", "Thiago", "Valentina", "Benjamin", "Camila", "Joaquin")
LAST_NAMES = ("Gomez", "Fernandez", "Lopez", "Diaz", "Martinez", "Perez", "Romero", "Sosa")
CITIES = ("La Rioja", "Chilecito", "Aimogasta", "Chamical")
DAY = 86400.0


def build(state: PlatformState) -> None:
    """Fills `state` with the demo platform for its seed."""
    rng = random.Random(state.seed)
    now = time.time()
    for seed in SITES:
        site = Site(seed.site_id, seed.name, seed.currency, seed.symbol, seed.face)
        site.providers = {name: name not in seed.disabled_providers for name in PROVIDERS}
        for player_seed in PLAYERS.get(seed.site_id, ()):
            player = new_player(site, player_seed.login, player_seed.password, f"{player_seed.login}@example.com")
            player.main.cash = money(player_seed.cash)
            player.main.bonus = money(player_seed.bonus)
            player.wallets["COMPPOINTS"].cash = money(player_seed.comp_points)
            player.comp_points_earned = money(player_seed.comp_points)
            player.deposits_flag = player_seed.deposits_flag
            player.withdrawal_flag = player_seed.withdrawal_flag
            player.first_name = rng.choice(FIRST_NAMES)
            player.last_name = rng.choice(LAST_NAMES)
            player.city = rng.choice(CITIES)
            player.verified = True
            _history(state, site, player, rng, now)
            site.players[player.login] = player
        site.content = content.seed_content(site, rng)
        site.content["sports"] = sports.seed_events(site, rng, now)
        state.sites[site.site_id] = site


def new_player(site: Site, login: str, password: str, email: str) -> Player:
    """A fresh account with the site's wallets, empty."""
    wallets = {
        site.currency: Wallet(1, site.currency, site.symbol, preferred=True),
        "PLAYMONEY": Wallet(2, "PLAYMONEY", "PM", cash=money(10000)),
        "COMPPOINTS": Wallet(3, "COMPPOINTS", "CP"),
    }
    return Player(
        login=login.lower(),
        password=password,
        email=email.lower(),
        nickname=login,
        first_name=login,
        last_name="",
        phone="",
        city="",
        country="AR",
        address="",
        state="LA RIOJA",
        ssn=None,
        currency=site.currency,
        wallets=wallets,
    )


def _history(state: PlatformState, site: Site, player: Player, rng: random.Random, now: float) -> None:
    """Past deposits, cashouts (a Locked one among them) and game rounds."""
    statuses = ("Approved", "Approved", "Locked", "Approved", "Pending")
    for i, status in enumerate(statuses):
        amount = money(rng.choice((500, 1000, 2500, 5000)))
        deposit = DepositRecord(
            seque_no=state.next_id("SEQ"),
            method=rng.choice((326, 328, 329)),
            amount=amount,
            currency=site.currency,
            created=now - (i + 1) * DAY * 1.5,
            status="[PaymentOperationStatus: Approved]" if status == "Approved" else "Started",
            credited=status == "Approved",
            history_status=status,
        )
        player.deposits.append(deposit)
    for i, status in enumerate(("Paid", "Cancelled", "Paid")):
        amount = money(rng.choice((1000, 2000, 3000)))
        paid = amount if status == "Paid" else Decimal("0.00")
        cancelled = amount if status == "Cancelled" else Decimal("0.00")
        player.cashouts.append(
            CashoutRecord(
                cashout_id=state.next_id("CO"),
                amount=amount,
                currency=site.currency,
                method="bank",
                created=now - (i + 1) * DAY * 2,
                status=status,
                paid_amount=paid,
                cancelled_amount=cancelled,
            )
        )
    balance = money(rng.randint(2000, 20000))
    names = ("Gates of Olympus", "Sweet Bonanza", "Book of Ruby", "Aztec Gold", "Big Bass Splash")
    for i in range(24):
        started = now - DAY * 2 + i * 3600 * 2
        bet = money(rng.choice((10, 20, 50, 100, 250)))
        win = money(bet * Decimal(rng.choice(("0", "0", "0.5", "1.5", "2", "10"))))
        closing = balance - bet + win
        player.game_rounds.append(
            GameRound(started, started + 900, rng.choice(names), balance, bet, bet, win, win, closing)
        )
        balance = closing
