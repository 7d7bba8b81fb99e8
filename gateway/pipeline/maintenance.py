"""2b. maintenance: while the skin is in maintenance (`gateway.maintenance.windows`), its money
calls and sign-ins are refused here, before a session is read or the platform called: 503 in the
platform's own envelope (`success: false`, code `MAINTENANCE`, the expected end), with Retry-After.
Everything else passes (content, the legal pages, a signed-in player's reads)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import msgspec

from gateway.http.asgi import Outgoing
from gateway.maintenance.windows import Maintenance, refused_in_maintenance
from gateway.pipeline.exchange import Exchange

DESCRIPTION = "The site is under maintenance"


@dataclass
class MaintenanceStage:
    maintenance: Maintenance

    async def run(self, x: Exchange) -> Outgoing | None:
        skin, route = x.site()
        window = self.maintenance.window(skin.id)  # a dict's lookup: most skins have none, most of the time
        if window is None or not refused_in_maintenance(route):
            return None
        now = time.time()
        if not window.on(now):
            return None
        body = {"success": False, "code": "MAINTENANCE", "description": DESCRIPTION, "until": window.until}
        wait = str(max(1, math.ceil(window.until - now))).encode()
        headers = ((b"retry-after", wait), (b"cache-control", b"no-store"))
        return Outgoing.json(503, msgspec.json.encode(body), x.ctx, *headers)
