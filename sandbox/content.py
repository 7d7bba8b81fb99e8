"""(being written)"""

from __future__ import annotations

from sandbox.platform import Registry

routes = Registry()


def seed_content(site: object, rng: object) -> dict[str, object]:
    return {}
