"""The console's status line and event timeline (`gateway.monitoring.watch`, `.events`).

The status line is what this instance's last round saw (every `BEAT_S`): answered from memory,
so it answers, and says the store is unavailable, while Redis does not. The timeline is read
only: its entries are written by the gateway itself, never posted.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from litestar import Request, get
from litestar.di import NamedDependency

from gateway.console.canaries.start import live_ones
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, error, invalid
from gateway.parts import Gateway
from gateway.store import StoreUnavailable

SKIN_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@get("/admin/api/status", opt={"role": "viewer"})
async def status(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if gateway.watch is None:
        return error(503, "NOT_WATCHED", "This instance does not watch the cluster", ctx)
    return Outgoing.json(200, {**gateway.watch.status(), "canaries": live_ones(gateway)}, ctx)


def _moment(given: str | None) -> float | None:
    """Epoch seconds, or an ISO 8601 time with its zone; None when not given. ValueError if neither."""
    if not given:
        return None
    try:
        return float(given)
    except ValueError:
        moment = datetime.fromisoformat(given)
    if moment.tzinfo is None:
        raise ValueError(given)
    return moment.timestamp()


def _asked(query: Any) -> tuple[float | None, float | None, str | None] | list[FieldError]:
    moments: dict[str, float | None] = {}
    errors = []
    for name in ("since", "until"):
        try:
            moments[name] = _moment(query.get(name))
        except ValueError:
            errors.append(FieldError(name, "TIME_INVALID", "Epoch seconds or an ISO 8601 time with its zone"))
    skin = query.get("skin") or None
    if skin is not None and not SKIN_ID.match(skin):
        errors.append(FieldError("skin", "UNKNOWN_SKIN", "Not a skin's id"))
    if errors:
        return errors
    return moments["since"], moments["until"], skin


@get("/admin/api/events", opt={"role": "viewer"})
async def events(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    """The timeline's entries from `since` to `until`, newest first; with `skin`, that skin's only."""
    ctx = RequestContext.of(request.scope)
    asked = _asked(request.query_params)
    if isinstance(asked, list):
        return invalid(ctx, asked)
    if gateway.watch is None:
        return error(503, "NOT_WATCHED", "This instance does not watch the cluster", ctx)
    timeline = gateway.watch.timeline
    try:
        entries = await timeline.read(*asked)
    except StoreUnavailable:
        return error(503, "STORE_UNAVAILABLE", "The store does not answer: the timeline cannot be read now", ctx)
    kept = "redis" if timeline.redis is not None else "memory"
    return Outgoing.json(200, {"kept": kept, "entries": entries}, ctx)


route_handlers = [status, events]
