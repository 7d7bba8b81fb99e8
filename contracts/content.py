"""Content (`/capi`): a Strapi CMS. Lists are `{data: [...], meta: {pagination}}`.

The entries carry the shapes the spec names (routerLink, status, heroBanner.url...).
Media URLs are `/capi/uploads/<file>` on the skin's content upstream.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar, get_args

import msgspec

from contracts.base import Wire
from contracts.locales import LOCALES, Locale

T = TypeVar("T")

BannerStatus = Literal["active", "inactive"]
# Per-language groups appear in the platform's order: Spanish first, English second,
# Portuguese third; a language added later comes after them.
_PLATFORM_ORDER: tuple[str, ...] = ("es", "en", "pt")


def _group_rank(lang: Locale) -> int:
    return _PLATFORM_ORDER.index(lang) if lang in _PLATFORM_ORDER else len(_PLATFORM_ORDER)


BANNER_GROUP_ORDER: tuple[Locale, ...] = tuple(sorted(LOCALES, key=_group_rank))


class Pagination(Wire, kw_only=True):
    page: int = 1
    pageSize: int = 25
    pageCount: int = 1
    total: int = 0


class Meta(Wire, kw_only=True):
    pagination: Pagination = msgspec.field(default_factory=Pagination)


class StrapiList(Wire, Generic[T], kw_only=True):
    data: list[T]
    meta: Meta = msgspec.field(default_factory=Meta)
    """Nothing in the product reads it: an answer without it keeps the contract."""


class Media(Wire, kw_only=True):
    url: str
    alternativeText: str | None = None
    width: int | None = None
    height: int | None = None


class HomeBanner(Wire, kw_only=True):
    id: int
    routerLink: str
    status: BannerStatus
    locale: Locale
    heroBanner: Media


class LobbyBanner(Wire, kw_only=True):
    id: int
    title: str
    routerLink: str
    status: BannerStatus
    locale: Locale
    LobbyImage: Media


class FooterBanner(Wire, kw_only=True):
    id: int
    title: str
    routerLink: str
    status: BannerStatus
    locale: Locale
    FooterImage: Media


class EventBanner(Wire, kw_only=True):
    id: int
    eventName: str
    routerLink: str
    status: BannerStatus
    locale: Locale
    eventBanner: Media


class PokerBanner(Wire, kw_only=True):
    id: int
    status: BannerStatus
    locale: Locale
    routerLink: str
    pokerBanner: Media


class Game(Wire, kw_only=True):
    """A game of a provider list: status 1 shows a NEW label.

    Providers name fields differently (gameId/Id, gameName/name, media/mediaPP/Images);
    the list carries all the spec names so every provider's reader finds its own.
    """

    gameId: str
    gameName: str
    name: str
    Id: str
    media: str
    mediaPP: str | None = None
    Images: str | None = None
    status: Literal[0, 1] = 0
    provider: str | None = None
    category: str | None = None


class GamesList(Wire, kw_only=True):
    """`games-lists` entry: the games are read as `data[0].gamesList`."""

    id: int
    gameProviderName: str
    category: str | None = None
    status: BannerStatus = "active"
    locale: Locale = "es"
    gamesList: list[Game]


class ReelDeals(Wire, kw_only=True):
    """`new-reels`: the Winter escape reel deals (spelling `Tornament` is the platform's)."""

    id: int
    locale: Locale
    prizeDrop: list[Game]
    Tornament: list[Game]


class HeaderLink(Wire, kw_only=True):
    id: int
    name: str
    translatedNames: dict[str, str]
    url: str
    icon: str | None = None


FaqTopic = Literal["deposits", "withdrawals", "verification", "bonuses", "responsibleGaming", "account"]
FAQ_TOPICS: tuple[FaqTopic, ...] = get_args(FaqTopic)


class Faq(Wire, kw_only=True):
    """`faqs`: one frequent question and its answer, per language (the footer's and side
    menu's Frequent Questions). The collection is not shown in the spec: chosen
    as the other collections are, one entry per question with its topic and its place."""

    id: int
    topic: FaqTopic
    question: str
    answer: str
    order: int = 0
    status: BannerStatus = "active"
    locale: Locale


HomeBanners = StrapiList[HomeBanner]
LobbyBanners = StrapiList[LobbyBanner]
FooterBanners = StrapiList[FooterBanner]
EventBanners = StrapiList[EventBanner]
PokerBanners = StrapiList[PokerBanner]
GamesLists = StrapiList[GamesList]
ReelDealsList = StrapiList[ReelDeals]
HeaderLinks = StrapiList[HeaderLink]
Faqs = StrapiList[Faq]
