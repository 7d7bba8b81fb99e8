"""(being written)"""

from __future__ import annotations

from sandbox.platform import Registry

routes = Registry()


def seed_events(site: object, rng: object, now: float) -> object:
    return []
