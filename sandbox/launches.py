"""(being written)"""

from __future__ import annotations

from litestar import get

from sandbox.platform import Registry

routes = Registry()


@get("/_sandbox/game/{provider:str}/{game_id:str}", sync_to_thread=False)
def demo_game_page(provider: str, game_id: str) -> str:
    return ""
