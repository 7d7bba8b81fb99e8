"""How a skin's upstreams' health is checked (`[skins.health]` in the skins file): a documented
call of the upstream's, held to its contract, or any other path that must answer a status; read
by `gateway.monitoring.health` for the overview and `bff_upstream_up`."""

from __future__ import annotations

from typing import Annotated

import msgspec

from contracts.catalogue import UPSTREAMS, Catalogue, Route, Upstream, upstream_of


class HealthCheck(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """How an upstream's health is checked (the overview, `bff_upstream_up`): a path under its base
    URL. A documented call that needs no player is made as `check-upstream` makes it and held to its
    contract; any other path is a GET that must answer `status`."""

    path: Annotated[str, msgspec.Meta(pattern=r"^/[^\s#]*$", max_length=500)]
    status: Annotated[int, msgspec.Meta(ge=100, le=599)] = 200


class HealthChecks(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Per upstream; one left out is checked with its default documented call (`contracts.catalogue.HEALTH`)."""

    api: HealthCheck | None = None
    capi: HealthCheck | None = None
    sbapi: HealthCheck | None = None
    rest: HealthCheck | None = None

    def of(self, upstream: Upstream) -> HealthCheck | None:
        found: HealthCheck | None = getattr(self, upstream)
        return found


_CATALOGUE = Catalogue()


def documented_route(path: str) -> Route | None:
    """The catalogue's route at a health check's path (its query aside), GET or POST."""
    bare = path.split("?", 1)[0]
    return next((found[0] for method in ("GET", "POST") if (found := _CATALOGUE.match(method, bare))), None)


def health_errors(skin_id: str, checks: HealthChecks) -> list[str]:
    """What is wrong with a skin's health checks: a documented call of another upstream, or one
    that needs a player or changes something (the health check would make it every few seconds)."""
    errors = []
    for upstream in UPSTREAMS:
        check = checks.of(upstream)
        if check is None:
            continue
        where, path, route = (
            f"skins[{skin_id}].health.{upstream}.path",
            check.path.split("?", 1)[0],
            documented_route(check.path),
        )
        if route is None and upstream_of(path) not in (None, upstream):
            errors.append(f"{where}: {path} is under /{upstream_of(path)}/, not /{upstream}/")
        elif route is not None and route.upstream != upstream:
            errors.append(f"{where}: {route.name} is a call of {route.upstream}, not {upstream}")
        elif route is not None and route.check is None:
            errors.append(f"{where}: {route.name} needs a player or changes something: name one that does not")
    return errors
