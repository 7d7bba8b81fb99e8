"""What the console shows at a glance, and does from there: every skin with its upstreams, each
upstream's last probe and breaker, the charts' figures (`gateway.monitoring.series`), every
instance (`gateway.monitoring.instances`); a skin's cache purged, a player's sessions revoked.

Upstreams' health is checked at most every `PROBE_EVERY_S` when someone looks (the overview, a
Prometheus scrape), and every 4 s by the status line's watch while a console shows it or calls
fail (`gateway.monitoring.watch`), all of them sharing one round: each skin's upstream as its
skins file says, by default with one documented call held to its contract
(`gateway.monitoring.health`). A breaker's state is the worst any live instance reports, as each
instance writes its tripped breakers into its record.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Protocol, runtime_checkable

import msgspec
from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath
from prometheus_client.parser import text_string_to_metric_families

from contracts.catalogue import UPSTREAMS
from gateway.accounts.caller import API_REASON, Actor
from gateway.accounts.roles import Operator
from gateway.config.history import iso
from gateway.config.skins import Skin
from gateway.console.answers.overview import (
    BreachScope,
    BreakerState,
    ConfigState,
    ContractBreach,
    FileState,
    InstanceList,
    Overview,
    PlatformError,
    PurgeCounts,
    Purged,
    Revoked,
    SkinView,
    StoreState,
    UpstreamHealth,
    UpstreamView,
)
from gateway.console.changes import allowed_hosts, asked_in, reason_errors, unknown_skin
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, invalid
from gateway.monitoring.health import Probe
from gateway.monitoring.instances import InstanceRecord
from gateway.monitoring.series import MAX_MINUTES
from gateway.parts import Gateway
from gateway.state.session import block_sign_in
from gateway.store import StoreUnavailable, keys

PROBE_EVERY_S = 5.0
WORST = {"closed": 0, "half-open": 1, "open": 2}
BREACHES = "bff_upstream_contract_breaches"
REFUSALS = "bff_platform_errors"


@runtime_checkable  # Litestar checks a dependency's value against its annotation
class Aggregate(Protocol):
    """The worker processes of `--workers N` (`gateway.console.admin.Workers`): their metrics summed."""

    def metrics(self) -> bytes: ...


def breaches(text: bytes) -> dict[str, list[ContractBreach]]:
    """Per skin, the platform answers refused as breaking their route's contract, by route, most
    first (`bff_upstream_contract_breaches_total` as `/metrics` says it)."""
    counted: dict[str, list[ContractBreach]] = {}
    for labels, count in _samples(text, BREACHES):
        counted.setdefault(labels["skin"], []).append(ContractBreach(labels["route"], count))
    return {skin: sorted(routes, key=lambda r: (-r.count, r.route)) for skin, routes in counted.items()}


def refusals(text: bytes) -> dict[str, list[PlatformError]]:
    """Per skin, the platform's own refusals (`success: false`) by route class and code, most first
    (`bff_platform_errors_total` as `/metrics` says it)."""
    counted: dict[str, list[PlatformError]] = {}
    for labels, count in _samples(text, REFUSALS):
        refused = PlatformError(labels["route_class"], labels["code"], count)
        counted.setdefault(labels["skin"], []).append(refused)
    return {skin: sorted(found, key=lambda r: (-r.count, r.code)) for skin, found in counted.items()}


def _samples(text: bytes, counter: str) -> Iterator[tuple[dict[str, str], int]]:
    """The labels and value of each sample of `counter` above 0 in Prometheus text."""
    for family in text_string_to_metric_families(text.decode()):
        if family.name == counter:
            for sample in family.samples:
                if sample.name == counter + "_total" and sample.value > 0:
                    yield sample.labels, int(sample.value)


async def live_records(gateway: Gateway) -> list[InstanceRecord]:
    """Every live instance's record; this one's alone while the store is away."""
    try:
        return await gateway.instances.live()
    except StoreUnavailable:
        return [gateway.instances.record()]


def _breakers(records: list[InstanceRecord]) -> dict[str, dict[str, Any]]:
    """`<skin>/<upstream>` -> the worst state any instance reports, since when it has been so."""
    worst: dict[str, dict[str, Any]] = {}
    for record in records:
        for key, tripped in record.breakers.items():
            seen = worst.get(key)
            if seen is None or WORST[tripped.state] > WORST[seen["state"]]:
                worst[key] = {"state": tripped.state, "since": tripped.since}
            elif tripped.state == seen["state"]:
                seen["since"] = min(seen["since"], tripped.since)
    return worst


def _health(probe: Probe | None) -> UpstreamHealth:
    if probe is None:
        return UpstreamHealth("unknown")
    return UpstreamHealth("up" if probe.up else "down", probe.latency_ms, iso(probe.checked_at), probe.detail)


def _skin(
    gateway: Gateway,
    skin: Skin,
    probes: dict[tuple[str, str], Probe],
    breakers: dict[str, dict[str, Any]],
    counted: tuple[dict[str, list[ContractBreach]], dict[str, list[PlatformError]]],
) -> SkinView:
    broken, refused = counted
    current = gateway.config.current
    from_file, overrides = current.file_bases.get(skin.id, {}), current.overrides.get(skin.id, {})
    upstreams = []
    for name in UPSTREAMS:
        url = skin.upstreams.base(name)
        tripped = breakers.get(f"{skin.id}/{name}", {"state": "closed", "since": None})
        since = tripped["since"]
        upstreams.append(
            UpstreamView(
                name=name,
                url=url,
                overridden=name in overrides,
                file_url=from_file.get(name),
                health=_health(probes.get((skin.id, name))),
                breaker=BreakerState(tripped["state"], iso(since) if since is not None else None),
            )
        )
    return SkinView(
        id=skin.id,
        name=skin.name,
        site_id=skin.site_id,
        hosts=list(skin.hosts),
        upstreams=upstreams,
        allowed_hosts=[str(pattern) for pattern in allowed_hosts(gateway, skin.id)],  # docs/allowed-hosts.md
        contract_breaches=broken.get(skin.id, []),
        platform_errors=refused.get(skin.id, []),
        approval=skin.approval,
        reality_check_minutes=skin.features.reality_check_minutes,
    )


@get("/admin/api/overview", opt={"role": "viewer"})
async def overview(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    operator: NamedDependency[Operator],
    workers: NamedDependency[Aggregate | None],
) -> Outgoing:
    probes = await gateway.health.probe_stale(PROBE_EVERY_S)
    breakers = _breakers(await live_records(gateway))
    # The counts this listener's `/metrics` gives: its workers' summed, or this process's own.
    text = workers.metrics() if workers is not None else gateway.metrics.render()
    counted = breaches(text), refusals(text)
    store = await gateway.health.store()
    config = gateway.config.describe()
    operators = FileState()
    if operator.may("admin") and gateway.accounts is not None:
        operators = msgspec.convert(gateway.accounts.operators.describe(), FileState)
    answer = Overview(
        config=msgspec.convert(
            {k: config[k] for k in ("version", "source", "changedAt", "error", "errorAt")}, ConfigState
        ),
        operators_file=operators,
        store=StoreState("redis" if gateway.stores.shared.distributed else "memory", store or "ok"),
        contract_breaches=BreachScope("workers" if workers is not None else "instance"),
        skins=[_skin(gateway, skin, probes, breakers, counted) for skin in gateway.config.skins.all],
    )
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@get("/admin/api/series", opt={"role": "viewer"})
async def series(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    given = request.query_params.get("minutes", "60")
    if not given.isdigit() or not 1 <= int(given) <= MAX_MINUTES:
        message = f"A whole number of minutes from 1 to {MAX_MINUTES}"
        return invalid(ctx, [FieldError("minutes", "OUT_OF_RANGE", message)])
    skins = [skin.id for skin in gateway.config.skins.all]
    return Outgoing.json(200, await gateway.series.read(skins, int(given)), ctx)


@get("/admin/api/instances", opt={"role": "viewer"})
async def instances(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    current, now = gateway.config.version, time.time()
    live = await gateway.instances.live()
    answer = InstanceList(current, [r.public(current, now) for r in live])
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


async def measure(gateway: Gateway) -> bytes:
    """What `/metrics` adds, measured now: each upstream's probe, the instances per version."""
    metrics = gateway.metrics
    probes = await gateway.health.probe_stale(PROBE_EVERY_S)
    metrics.upstream_up.clear()
    metrics.upstream_latency.clear()
    for skin in gateway.config.skins.all:
        for name in UPSTREAMS:
            probe = probes.get((skin.id, name))
            if probe is not None:
                metrics.upstream_up.labels(skin.id, name).set(1 if probe.up else 0)
                metrics.upstream_latency.labels(skin.id, name).set(probe.latency_ms / 1000)
    running: dict[str | None, int] = {}
    for record in await live_records(gateway):
        running[record.config_version] = running.get(record.config_version, 0) + 1
    metrics.instances.clear()
    for version, count in running.items():
        metrics.instances.labels(version or "unknown").set(count)
    return metrics.render_measured()


# --- a skin's cache, a player's sessions ------------------------------------------------


async def _purge_skin(gateway: Gateway, caller: Actor, skin_id: str, reason: str) -> Purged:
    """The skin's cached content dropped in the shared store and on every instance."""
    prefix = keys.content_prefix(skin_id)
    local = await gateway.cache.purge(prefix)
    shared = await gateway.stores.shared.delete_prefix(prefix)
    await gateway.config.broadcast_purge(skin_id)
    await caller.record("purge", "ok", reason, skin=skin_id, detail={"local": local, "shared": shared})
    return Purged(skin_id, PurgeCounts(local, shared))


async def _revoke_player(gateway: Gateway, caller: Actor, player: tuple[str, str], reason: str) -> Revoked:
    """Every gateway session the player logged in with on the skin, ended, and their sign-ins refused for
    `SIGN_IN_BLOCK_S`; `found`: whether there was any session to end (a mistyped login finds none)."""
    skin_id, login = player
    # Blocked first (a sign-in racing the revocation is refused), and even when no session was live:
    # whoever holds the password may be about to sign in.
    until = await block_sign_in(gateway.stores.shared, skin_id, login, gateway.settings.sign_in_block_s)
    ended = await gateway.sessions.revoke_player(skin_id, login)
    if gateway.feed is not None:  # the player's streams end on every instance
        await gateway.feed.announce_revocation(skin_id, login)
    blocked = iso(until) if until else None
    detail = {"sessionsEnded": ended, "found": ended > 0, "blockedUntil": blocked}
    await caller.record("revoke", "ok", reason, skin=skin_id, target=login, detail=detail)
    return Revoked(skin_id, login, ended, ended > 0, blocked)


async def _reason(request: Request[Any, Any, Any], ctx: RequestContext) -> str | Outgoing:
    """The reason the console must give (3-500 characters); the bearer API may leave it out."""
    asked = await asked_in(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    if asked.reason is None and not request.url.path.startswith("/admin/api/"):
        return API_REASON
    errors = reason_errors(asked.reason)
    return invalid(ctx, errors) if errors else (asked.reason or "").strip()


@post(
    ["/admin/api/skins/{skin_id:str}/cache/purge", "/admin/skins/{skin_id:str}/cache/purge"],
    status_code=200,
    opt={"role": "operator"},
)
async def purge(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
) -> Outgoing:
    """The console's (with a reason) and the bearer API's."""
    return await _skin_action(request, gateway, skin_id, lambda reason: _purge_skin(gateway, caller, skin_id, reason))


@post(
    [
        "/admin/api/skins/{skin_id:str}/players/{login:str}/revoke",
        "/admin/skins/{skin_id:str}/players/{login:str}/revoke",
    ],
    status_code=200,
    opt={"role": "operator"},
)
async def revoke(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
    login: FromPath[str],
) -> Outgoing:
    """The console's (with a reason) and the bearer API's."""
    return await _skin_action(
        request, gateway, skin_id, lambda reason: _revoke_player(gateway, caller, (skin_id, login), reason)
    )


async def _skin_action(
    request: Request[Any, Any, Any], gateway: Gateway, skin_id: str, act: Callable[[str], Awaitable[Purged | Revoked]]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    reason = await _reason(request, ctx)
    if isinstance(reason, Outgoing):
        return reason
    if (missing := unknown_skin(gateway, skin_id, ctx)) is not None:
        return missing
    return Outgoing.json(200, await act(reason), ctx)


route_handlers = [overview, series, instances, purge, revoke]
