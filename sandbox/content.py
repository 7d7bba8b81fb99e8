"""Content (`/capi`): the skin's Strapi CMS — banners, game lists, reel deals, header links
and the uploaded images they point at.

Collections are built once per site by `seed_content` and answered with Strapi's list
shape and query syntax: `filters[<field>][$eq]=<value>` (and `$ne`) on any top-level scalar
field, and `pagination[page]` / `pagination[pageSize]`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Response

from contracts import content
from contracts.base import Wire
from contracts.content import (
    BANNER_GROUP_ORDER,
    BannerStatus,
    EventBanner,
    FooterBanner,
    Game,
    GamesList,
    HeaderLink,
    HomeBanner,
    LobbyBanner,
    Media,
    Meta,
    Pagination,
    PokerBanner,
    ReelDeals,
    StrapiList,
)
from contracts.locales import Locale
from sandbox import media
from sandbox.faqs import seed_faqs
from sandbox.media import BannerKind
from sandbox.platform import Call, Registry, failure
from sandbox.state import Site
from sandbox.texts import Words, words

routes = Registry()

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100  # Strapi's default maxLimit
MEDIA_CACHE = "public, max-age=86400"
_FILTER = re.compile(r"^filters((?:\[[^\]]+\])+)$")
OPERATORS = ("$eq", "$ne")


# --- The game catalogue ---------------------------------------------------------


@dataclass(frozen=True)
class CatalogueGame:
    game_id: str
    name: str


def _games(prefix: str, names: str) -> tuple[CatalogueGame, ...]:
    """`prefix` + slug ids for a '|'-separated list of names."""
    return tuple(CatalogueGame(f"{prefix}{media.slug(n).replace('-', '')}", n) for n in names.split("|"))


PRAGMATIC = (
    CatalogueGame("vs20olympgate", "Gates of Olympus"),
    CatalogueGame("vs20fruitsw", "Sweet Bonanza"),
    CatalogueGame("vs10txbigbass", "Big Bass Splash"),
    *_games(
        "vs20",
        "Sun Queen of Cusco|Wolf Moon Rising|Candy Castle|Gold Rush Canyon|Jungle King Deluxe|Pharaoh's Vault|"
        "Dragon Pearl|Buffalo Stampede|Neon Nights|Mystic Owl|Pirate's Gold Bay|Five Tigers|Fruit Fiesta|"
        "Snow Queen Riches|Lucky Clover Farm|Aztec Sun Temple|Viking Raiders|Cosmic Cash|Wild Rodeo|Samba Carnival",
    ),
)
RUBYPLAY = (
    CatalogueGame("ruby-book", "Book of Ruby"),
    *_games(
        "ruby-",
        "Crimson Crown|Jewel Heist|Ruby Rush|Lava Gems|Mayan Ruby Temple|Ruby Dragon|Scarlet Sevens|Hot Chili Reels|"
        "Rose Garden Riches|Cherry Bomb|Red Panda Luck|Fire Phoenix|Garnet Mine|Royal Rubies|Volcano Vault|"
        "Red Baron Wins|Flamenco Fire|Cardinal Cash|Mars Mission|Ruby Reef|Blood Moon Howl",
    ),
)
MANCALA = _games(
    "mg-",
    "Aztec Gold|Jackpot Express|Golden Scarab|Fortune Koi|Desert Oasis|Mega Safari|Treasure Island Quest|"
    "Lucky Lanterns|Wild Bison|Magic Oak|Tropical Tiki|Emerald Temple|Thunder Reels|Diamond Mine|Samurai Spirit|"
    "Circus Delight|Atlantis Pearls|Honey Bees|Space Jackpot|Gold Express|Fruit Spin Deluxe|Royal Horses",
)
HOLIDAY = _games(
    "vs20",
    "Santa's Sleigh Riches|Jingle Jackpots|Winter Wonder Wins|Snowman Spins|Gingerbread Bonanza|Holiday Lights|"
    "Reindeer Rush|Frosty Fortune",
)
FISHING = _games(
    "vs10",
    "Bass Boat Bonanza|Reel Catch Deluxe|Lucky Angler|Deep Sea Treasures|Big Catch Carnival|Trout Trouble|"
    "Marlin Madness|Fisherman's Fortune",
)
LIVE_BLACKJACK = _games(
    "bj-",
    "Blackjack Heat|Speed Blackjack|VIP Blackjack Azure|Holiday Blackjack|Lucky 7 Blackjack|Blackjack Ruby Room",
)
EVOLUTION = _games(
    "evo-",
    "Live Roulette Royale|Speed Baccarat Live|Infinite Blackjack Live|Dream Wheel|Lucky Dice Live|Sic Bo Deluxe|"
    "Dragon Tiger Live|Texas Hold'em Live|Fan Tan Live|Deal or Spin",
)
CRASH = _games("vb-", "Fly and Win|Rocket Rush|Jet Cash|Balloon Pop|Star Crash|Paper Plane Pilot")
HABANERO = _games(
    "hb-",
    "Hot Hot Fruit|Koi Gate|Lantern Luck|Wild Trucks|Nuwa|Fire Rooster|Mystic Fortune|Colossal Gems",
)
ENDORPHINA = _games(
    "ed-",
    "Chunky Monkey|Geisha|Voodoo|Twerk|Football Superstar|Minotaurus|Temple Cats|Taboo Spin",
)

# Provider lists (category None) come first, so `data[0]` of a provider filter is its list.
PROVIDER_LISTS: Mapping[str, tuple[CatalogueGame, ...]] = {
    "rubyplay": RUBYPLAY,
    "mancala": MANCALA,
    "pragmaticplay": PRAGMATIC,
}
# Every other studio of the home provider chips with games of its own (the chips filter the slots
# screen to any of them); vivogaming, ezugi and evenbetpoker have tables and a lobby, no list.
MORE_PROVIDER_LISTS: Mapping[str, tuple[CatalogueGame, ...]] = {
    "habanero": HABANERO,
    "endorphina": ENDORPHINA,
    "vibra": CRASH,
    "evolution": EVOLUTION,
    "pragmaticplaylivecasino": LIVE_BLACKJACK,
}
NEW_PER_PROVIDER = 5
FIRST_NUMBERS = (
    (1001, MANCALA),
    (2001, PRAGMATIC),
    (3001, RUBYPLAY),
    (4001, HOLIDAY),
    (4101, FISHING),
    (4201, LIVE_BLACKJACK),
    (4301, EVOLUTION),
    (4401, CRASH),
    (4501, HABANERO),
    (4601, ENDORPHINA),
)
# The numeric `Id` of every game (mancala launches by it), the same in every list.
NUMBERS: Mapping[str, int] = {
    entry.game_id: first + i for first, catalogue in FIRST_NUMBERS for i, entry in enumerate(catalogue)
}


@dataclass(frozen=True)
class Category:
    name: str
    provider: str
    pick: Callable[[random.Random], Sequence[CatalogueGame]]
    status: int = 0


CATEGORIES = (
    Category("dropsAndWins", "pragmaticplay", lambda rng: rng.sample(PRAGMATIC, 12)),
    Category("newpragmatic", "pragmaticplay", lambda rng: PRAGMATIC[-8:], status=1),
    Category("Hoiliday", "pragmaticplay", lambda rng: HOLIDAY),
    Category("takeMeFishin", "pragmaticplay", lambda rng: FISHING),
    Category("Events", "pragmaticplaylivecasino", lambda rng: LIVE_BLACKJACK),
    Category("evogames", "evolution", lambda rng: EVOLUTION),
    Category("crashGames", "vibra", lambda rng: CRASH),
)

TOURNAMENT: Words = words("reels.tournament")


def game(entry: CatalogueGame, provider: str, status: int = 0, category: str | None = None) -> Game:
    """One game as the lists carry it: every provider's spelling of id, name and image."""
    return Game(
        gameId=entry.game_id,
        gameName=entry.name,
        name=entry.name,
        Id=str(NUMBERS[entry.game_id]),
        media=media.game_url(provider, entry.name),
        mediaPP=media.card_url(provider, entry.name),
        Images=media.game_url(provider, entry.name),
        status=1 if status else 0,
        provider=provider,
        category=category,
    )


def find_game(site: Site, provider: str, game_id: str) -> Game | None:
    """A listed game of `provider` by its gameId or Id."""
    lists: Sequence[GamesList] = site.content.get("gamesLists", ())
    for entry in lists:
        if entry.gameProviderName != provider:
            continue
        for listed in entry.gamesList:
            if game_id in (listed.gameId, listed.Id):
                return listed
    return None


# --- Building the collections ------------------------------------------------------


def seed_content(site: Site, rng: random.Random) -> dict[str, Sequence[object]]:
    """Every CMS collection of a site (contract Structs), keyed by catalogue route name."""
    return {
        "homeBanners": _banners(site, rng, "hero", _home_banner),
        "lobbyBanners": _banners(site, rng, "lobby", _lobby_banner),
        "footerBanners": _banners(site, rng, "footer", _footer_banner),
        "eventBanners": _banners(site, rng, "event", _event_banner),
        "pokerBanners": _banners(site, rng, "poker", _poker_banner),
        "gamesLists": _games_lists(rng),
        "newReels": _reel_deals(rng),
        "headerLinks": _header_links(),
        "faqs": seed_faqs(site.name),
    }


@dataclass(frozen=True)
class BannerDraft:
    id: int
    status: BannerStatus
    locale: Locale
    router_link: str
    title: str
    image: Media


BannerBuilder = Callable[[BannerDraft], Wire]


def _banners(site: Site, rng: random.Random, kind: BannerKind, build: BannerBuilder) -> list[Wire]:
    """Per language (es, en, pt), every theme of `kind`; its past edition inactive, or without one,
    one theme picked by `rng` (the event screens' current events stay on: the events have a past one)."""
    themes = media.BANNERS[kind]
    past = [n for n, theme in enumerate(themes) if theme.past]
    picked = rng.randrange(len(themes) - len(past))  # drawn either way: the rest of the seed stays as it was
    retired = past[0] if past else picked
    banners: list[Wire] = []
    for locale in BANNER_GROUP_ORDER:
        for n, theme in enumerate(themes, start=1):
            title = f"{site.name}: {theme.headline[locale]}"
            width, height = media.BANNER_SIZES[kind]
            url = media.banner_url(kind, site.site_id, locale, n)
            image = Media(url=url, alternativeText=title, width=width, height=height)
            status: BannerStatus = "inactive" if n - 1 == retired else "active"
            draft = BannerDraft(len(banners) + 1, status, locale, theme.router_link, title, image)
            banners.append(build(draft))
    return banners


def _home_banner(d: BannerDraft) -> HomeBanner:
    return HomeBanner(id=d.id, routerLink=d.router_link, status=d.status, locale=d.locale, heroBanner=d.image)


def _lobby_banner(d: BannerDraft) -> LobbyBanner:
    return LobbyBanner(
        id=d.id, title=d.title, routerLink=d.router_link, status=d.status, locale=d.locale, LobbyImage=d.image
    )


def _footer_banner(d: BannerDraft) -> FooterBanner:
    return FooterBanner(
        id=d.id, title=d.title, routerLink=d.router_link, status=d.status, locale=d.locale, FooterImage=d.image
    )


def _event_banner(d: BannerDraft) -> EventBanner:
    return EventBanner(
        id=d.id, eventName=d.title, routerLink=d.router_link, status=d.status, locale=d.locale, eventBanner=d.image
    )


def _poker_banner(d: BannerDraft) -> PokerBanner:
    return PokerBanner(id=d.id, status=d.status, locale=d.locale, routerLink=d.router_link, pokerBanner=d.image)


def _games_lists(rng: random.Random) -> list[GamesList]:
    """Provider lists per locale, then a retired (inactive) list per provider, then categories."""
    lists: list[GamesList] = []

    def add(provider: str, games: list[Game], locale: Locale, category: str | None = None) -> None:
        entry = GamesList(
            id=len(lists) + 1, gameProviderName=provider, category=category, locale=locale, gamesList=games
        )
        lists.append(entry)

    for provider, catalogue in PROVIDER_LISTS.items():
        new = set(rng.sample(range(len(catalogue)), NEW_PER_PROVIDER))
        games = [game(g, provider, int(i in new)) for i, g in enumerate(catalogue)]
        for locale in BANNER_GROUP_ORDER:
            add(provider, games, locale)
    for provider, catalogue in MORE_PROVIDER_LISTS.items():  # no draw: the rest of the seed stays as it was
        for locale in BANNER_GROUP_ORDER:
            add(provider, [game(g, provider) for g in catalogue], locale)
    for provider, catalogue in PROVIDER_LISTS.items():
        retired = GamesList(
            id=len(lists) + 1,
            gameProviderName=provider,
            status="inactive",
            gamesList=[game(g, provider) for g in catalogue[:6]],
        )
        lists.append(retired)
    for category in CATEGORIES:
        games = [game(g, category.provider, category.status, category.name) for g in category.pick(rng)]
        for locale in BANNER_GROUP_ORDER:
            add(category.provider, games, locale, category.name)
    return lists


def _reel_deals(rng: random.Random) -> list[ReelDeals]:
    """Winter escape reel deals: a prize-drop slot list and tournaments, per locale."""
    prize_drop = [game(g, "pragmaticplay") for g in rng.sample(PRAGMATIC, 10)]
    featured = rng.sample(PRAGMATIC, 4)
    deals = []
    for n, locale in enumerate(BANNER_GROUP_ORDER, start=1):
        tournaments = [_tournament(g, locale, rank) for rank, g in enumerate(featured, start=1)]
        deals.append(ReelDeals(id=n, locale=locale, prizeDrop=prize_drop, Tornament=tournaments))
    return deals


def _tournament(entry: CatalogueGame, locale: Locale, rank: int) -> Game:
    listed = game(entry, "pragmaticplay", category="tournament")
    return msgspec.structs.replace(listed, name=f"{TOURNAMENT[locale]} #{rank}: {entry.name}")


HEADER_LINKS: tuple[tuple[int, str, str], ...] = (
    # id, url, icon (the name is `headerLink.<icon>` in sandbox/texts)
    (1, "/home", "home"),
    (14, "/poker", "poker"),
    (4, "/games/livedealer", "live"),
    (3, "/games/sports", "sports"),
    (2, "/games/slots", "slots"),
    (5, "/games/horseracing", "horses"),
    (16, "/DropWin", "drops"),
    (15, "/games/Blackjack", "blackjack"),
    (6, "/promotions", "promotions"),
    (7, "/contactus", "contact"),
    (8, "/mybalance", "balance"),
    (17, "/spinwheel", "wheel"),
    (18, "/blackjackleague", "league"),
    (19, "/home", "lobby"),
    (20, "/ReelD", "reels"),
    (21, "/", "main"),
    (22, "/games/flywin", "flywin"),
    (23, "/HolidayRush", "holiday"),
    (33, "/takeMeFishin", "fishing"),
)
# The platform names a link in English and translates it into the other languages.
NAME_LANGUAGE: Locale = "en"


def _header_links() -> list[HeaderLink]:
    return [
        HeaderLink(
            id=i,
            name=names[NAME_LANGUAGE],
            translatedNames={lang: text for lang, text in names.items() if lang != NAME_LANGUAGE},
            url=url,
            icon=media.icon_url(icon),
        )
        for i, url, icon in HEADER_LINKS
        for names in [words(f"headerLink.{icon}")]
    ]


# --- Strapi queries ----------------------------------------------------------------


def strapi_list(call: Call, collection: str) -> StrapiList[Any]:
    """One page of a collection after the query's `filters[...]`."""
    entries: Sequence[Wire] = call.site.content[collection]
    filters = _filters(call.query)
    chosen = [e for e in entries if all(_matches(e, f, op, v) for f, op, v in filters)]
    page = _page_number(call.query, "page", 1)
    size = min(_page_number(call.query, "pageSize", DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE)
    pagination = Pagination(page=page, pageSize=size, pageCount=math.ceil(len(chosen) / size), total=len(chosen))
    return StrapiList(data=chosen[(page - 1) * size : page * size], meta=Meta(pagination=pagination))


def _filters(query: Mapping[str, str]) -> list[tuple[list[str], str, str]]:
    """`filters[a][b][$op]=v` -> (path [a, b], op, v); without an operator Strapi means `$eq`."""
    parsed = []
    for key, value in query.items():
        found = _FILTER.match(key)
        if found is None:
            continue
        path = re.findall(r"\[([^\]]+)\]", found.group(1))
        operator = path.pop() if path[-1].startswith("$") else "$eq"
        if operator not in OPERATORS:
            raise failure(f"Invalid filter operator {operator}", "BAD_REQUEST", 400)
        parsed.append((path, operator, value))
    return parsed


def _matches(entry: Wire, path: list[str], operator: str, wanted: str) -> bool:
    """`$eq` / `$ne` on a top-level scalar field; absent, empty or nested fields match nothing."""
    field = path[0] if len(path) == 1 else None
    value = getattr(entry, field) if field in type(entry).__struct_fields__ else None
    if value is None or not isinstance(value, str | int | float):
        return False
    return (str(value) == wanted) == (operator == "$eq")


def _page_number(query: Mapping[str, str], name: str, default: int) -> int:
    raw = query.get(f"pagination[{name}]")
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise failure(f"pagination[{name}] must be a positive integer", "BAD_REQUEST", 400)
    return int(raw)


# --- Routes -------------------------------------------------------------------------


@routes("homeBanners")
async def home_banners(call: Call) -> content.HomeBanners:
    return strapi_list(call, "homeBanners")


@routes("lobbyBanners")
async def lobby_banners(call: Call) -> content.LobbyBanners:
    return strapi_list(call, "lobbyBanners")


@routes("footerBanners")
async def footer_banners(call: Call) -> content.FooterBanners:
    return strapi_list(call, "footerBanners")


@routes("eventBanners")
async def event_banners(call: Call) -> content.EventBanners:
    return strapi_list(call, "eventBanners")


@routes("pokerBanners")
async def poker_banners(call: Call) -> content.PokerBanners:
    return strapi_list(call, "pokerBanners")


@routes("gamesLists")
async def games_lists(call: Call) -> content.GamesLists:
    return strapi_list(call, "gamesLists")


@routes("newReels")
async def new_reels(call: Call) -> content.ReelDealsList:
    return strapi_list(call, "newReels")


@routes("headerLinks")
async def header_links(call: Call) -> content.HeaderLinks:
    return strapi_list(call, "headerLinks")


@routes("faqs")
async def faqs(call: Call) -> content.Faqs:
    return strapi_list(call, "faqs")


@routes("media")
async def uploaded_media(call: Call) -> Response[str]:
    """An uploaded image, drawn from its file name."""
    site_names = {site.site_id: site.name for site in call.state.sites.values()}
    svg = media.render(call.path_params["file"], site_names)
    if svg is None:
        raise failure("Media not found", "NOT_FOUND", 404)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": MEDIA_CACHE})
