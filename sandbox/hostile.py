"""Sandbox-only: CMS entries a test writes, as an editor (or someone who got into the CMS) would.

`PUT /_sandbox/sites/{site}/content/{collection}` takes a list of entries of the collection's
contract type (`contracts.content`); an entry whose id the collection already has replaces it, the
others are added after the seeded ones. `/_sandbox/reset` seeds the site anew, without them. The
gateway caches content per query: a test writes its entries before the pages ask for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from litestar import Router, put
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import FromPath, JSONBody

from contracts import content
from contracts.base import Wire
from sandbox.state import PlatformState

COLLECTIONS: Mapping[str, type[Wire]] = {
    "homeBanners": content.HomeBanner,
    "lobbyBanners": content.LobbyBanner,
    "footerBanners": content.FooterBanner,
    "eventBanners": content.EventBanner,
    "pokerBanners": content.PokerBanner,
    "gamesLists": content.GamesList,
    "headerLinks": content.HeaderLink,
    "faqs": content.Faq,
}
"""The collections an editor writes links and texts in, by catalogue route name."""


def route_handlers(state: PlatformState) -> list[Router]:
    @put("/sites/{site_id:str}/content/{collection:str}", sync_to_thread=False)
    def write_content(site_id: FromPath[str], collection: FromPath[str], data: JSONBody[list[Any]]) -> dict[str, int]:
        site = state.sites.get(site_id)
        kind = COLLECTIONS.get(collection)
        if site is None or kind is None:
            raise NotFoundException(f"no collection {collection} on site {site_id}")
        try:
            written: list[Wire] = msgspec.convert(data, list[kind])  # type: ignore[valid-type]
        except msgspec.ValidationError as exc:
            raise ValidationException(str(exc)) from None
        by_id: dict[int, Wire] = {entry.id: entry for entry in written}  # type: ignore[attr-defined]
        kept = [by_id.pop(entry.id, entry) for entry in site.content[collection]]
        site.content[collection] = [*kept, *by_id.values()]
        return {"entries": len(site.content[collection])}

    return [Router(path="/_sandbox", route_handlers=[write_content])]
