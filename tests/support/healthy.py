"""A mocked platform that passes the overview's health checks: each upstream's default documented
call (`contracts.catalogue.HEALTH`) answered as its contract says, so a test that looks at the
overview or `/metrics` sees its upstreams up, and its respx router has a route for every check."""

from __future__ import annotations

from typing import Any

import httpx
import respx

from contracts.catalogue import HEALTH

ANSWERS: dict[str, Any] = {
    "getCountries": {"success": True, "countries": []},
    "headerLinks": {"data": [], "meta": {"pagination": {"page": 1, "pageSize": 25, "pageCount": 1, "total": 0}}},
    "sportsList": {"sports": []},
    "vivoLaunch": {"success": False, "code": "SESSION_EXPIRED", "description": "Session expired"},
}
"""The smallest answer keeping each default health call's contract (vivoLaunch: made without a player)."""


def healthy(router: respx.Router) -> dict[str, respx.Route]:
    """Mocks every upstream's default health call on `router`; its routes by upstream, to count them."""
    return {
        upstream: router.route(method=route.method, path=route.path).mock(
            return_value=httpx.Response(200, json=ANSWERS[route.name])
        )
        for upstream, route in HEALTH.items()
    }
