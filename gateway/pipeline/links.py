"""Under plan: the links in a content answer checked before anyone is served it or it is kept
(`contracts.links`: the rule the SPA applies too), for clients other than this SPA and so that a
poisoned CMS entry is not kept and served to every player for its copy's life. A link the rule
refuses is blanked (`""`: the SPA shows the entry without a link), logged with where it was and
what it held, and counted per skin and route (`bff_content_links_refused_total`)."""

from __future__ import annotations

from typing import Any

import msgspec
import structlog

from contracts.catalogue import Route
from contracts.links import Path, allowed_link, blank_refused, link_paths
from gateway.config.skins import Skin
from gateway.runtime.metrics import Metrics
from gateway.state.outcome import Outcome

log = structlog.get_logger("gateway.content")


class ContentLinks:
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._paths: dict[str, list[Path]] = {}

    def checked(self, skin: Skin, route: Route, outcome: Outcome) -> Outcome:
        """The answer with every refused link blanked; the same answer when none was (the common
        case costs one decode of a content miss, never of a hit)."""
        paths = self._paths_of(route)
        if not paths or outcome.failure is not None or outcome.status != 200:
            return outcome
        try:
            data: Any = msgspec.json.decode(outcome.body)
        except msgspec.DecodeError:
            return outcome  # the contract check has refused it already
        site_hosts = set(skin.hosts)
        origins = set(skin.link_origins())
        blanked = blank_refused(data, paths, lambda raw: allowed_link(raw, site_hosts, origins))
        if not blanked:
            return outcome
        self.metrics.links_refused.labels(skin.id, route.name).inc(len(blanked))
        for where, value in blanked:
            log.warning("content.link_refused", skin=skin.id, route=route.name, where=where, link=value[:200])
        return Outcome(outcome.status, outcome.headers, msgspec.json.encode(data), session=outcome.session)

    def _paths_of(self, route: Route) -> list[Path]:
        found = self._paths.get(route.name)
        if found is None:
            found = self._paths[route.name] = link_paths(route.response) if route.policy == "content" else []
        return found
