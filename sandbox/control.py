"""Sandbox-only control calls under `/_sandbox/`: faults, provider switches, forced expiry,
call counts and ledgers for tests and benchmarks. Never part of the catalogue, so the
gateway never forwards them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import Router, delete, get, post, put
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, FromQuery, JSONBody

from sandbox.seed import new_player
from sandbox.state import Fault, PlatformState, Site, Wire, money


class FaultSpec(msgspec.Struct, kw_only=True):
    latencyMs: int = 0
    errorRate: float = 0.0
    errorStatus: int = 500
    timeout: bool = False
    sessionExpired: bool = False
    code: str | None = "INJECTED_FAULT"
    description: str | None = None
    count: int | None = None
    headers: dict[str, str] = {}
    """Extra headers on the route's answers (a platform's Cache-Control, Vary...)."""
    body: str | None = None
    """The route answers this, as given, with `contentType` and `errorStatus` (say 200): what a
    hostile or compromised platform sends (an HTML page, a script, an SVG with script)."""
    contentType: str | None = None


class ProviderSwitch(msgspec.Struct):
    enabled: bool


class ExpireRequest(msgspec.Struct):
    login: str | None = None


class NewPlayer(msgspec.Struct, kw_only=True):
    login: str
    password: str
    cash: str = "0"


class ConfigUpdate(msgspec.Struct, kw_only=True):
    idleTimeoutS: float | None = None
    depositApprovalDelayS: float | None = None


class WireSpec(msgspec.Struct, kw_only=True, omit_defaults=True):
    """How the sandbox is served (sandbox/served.py); a field left out keeps its value."""

    compress: bool | None = None
    keepaliveRequests: Annotated[int, msgspec.Meta(ge=0)] | None = None
    """0: no limit."""
    keepaliveTimeoutS: Annotated[float, msgspec.Meta(gt=0)] | None = None
    """For connections opened after the change."""
    balancerErrors: bool | None = None
    sticky: bool | None = None
    trickleMs: Annotated[int, msgspec.Meta(ge=0)] | None = None
    extraFields: bool | None = None


WIRE_FIELDS = {
    "compress": "compress",
    "keepaliveRequests": "keepalive_requests",
    "keepaliveTimeoutS": "keepalive_timeout_s",
    "balancerErrors": "balancer_errors",
    "sticky": "sticky",
    "trickleMs": "trickle_ms",
    "extraFields": "extra_fields",
}
"""A `WireSpec` field -> the `Wire` attribute it sets."""


def wire_spec(wire: Wire) -> dict[str, Any]:
    return {name: getattr(wire, attribute) for name, attribute in WIRE_FIELDS.items()}


def route_handlers(state: PlatformState, settings: Any, rebuild: Callable[[Any], PlatformState]) -> list[Router]:
    def site_of(site_id: str) -> Site:
        site = state.sites.get(site_id)
        if site is None:
            raise NotFoundException(f"no site {site_id}")
        return site

    @get("/health", sync_to_thread=False)
    def health() -> dict[str, Any]:
        return {"ok": True, "sites": sorted(state.sites)}

    @get("/calls", sync_to_thread=False)
    def calls() -> dict[str, int]:
        return dict(state.calls)

    @delete("/calls", sync_to_thread=False)
    def reset_calls() -> None:
        state.calls.clear()

    @put("/faults/{name:str}", sync_to_thread=False)
    def set_fault(name: FromPath[str], data: JSONBody[FaultSpec]) -> dict[str, Any]:
        state.faults[name] = Fault(
            latency_ms=data.latencyMs,
            error_rate=data.errorRate,
            error_status=data.errorStatus,
            timeout=data.timeout,
            session_expired=data.sessionExpired,
            code=data.code,
            description=data.description,
            remaining=data.count,
            headers=dict(data.headers),
            body=data.body.encode() if data.body is not None else None,
            body_type=data.contentType,
        )
        return {"route": name, "fault": msgspec.to_builtins(data)}

    @delete("/faults", sync_to_thread=False)
    def clear_faults() -> None:
        state.faults.clear()

    @delete("/faults/{name:str}", sync_to_thread=False)
    def clear_fault(name: FromPath[str]) -> None:
        state.faults.pop(name, None)

    @put("/sites/{site_id:str}/providers/{name:str}", sync_to_thread=False)
    def switch_provider(site_id: FromPath[str], name: FromPath[str], data: JSONBody[ProviderSwitch]) -> dict[str, bool]:
        site = site_of(site_id)
        site.providers[name] = data.enabled
        return dict(site.providers)

    @post("/sites/{site_id:str}/sessions/expire", sync_to_thread=False)
    def expire(site_id: FromPath[str], data: JSONBody[ExpireRequest]) -> dict[str, int]:
        return {"expired": state.expire_sessions(site_of(site_id), data.login)}

    @get("/sites/{site_id:str}/players/{login:str}", sync_to_thread=False)
    def player_summary(site_id: FromPath[str], login: FromPath[str]) -> dict[str, Any]:
        site = site_of(site_id)
        player = site.player(login)
        if player is None:
            raise NotFoundException(f"no player {login}")
        return {
            "login": player.login,
            "wallets": {name: {"cash": str(w.cash), "bonus": str(w.bonus)} for name, w in player.wallets.items()},
            "deposits": [
                {"seque_no": d.seque_no, "amount": str(d.amount), "status": d.status} for d in player.deposits
            ],
            "cashouts": [
                {"cashoutId": c.cashout_id, "amount": str(c.amount), "status": c.status} for c in player.cashouts
            ],
            "bankAccounts": len(player.bank_accounts),
            "documents": [d.doc_type for d in player.documents],
            "verifyToken": player.verify_token,
            "sessions": sum(1 for s in site.sessions.values() if s.login == player.login),
            # For tests that prove the platform's session id never leaks through the gateway.
            "sessionIds": [token for token, s in site.sessions.items() if s.login == player.login],
        }

    @post("/sites/{site_id:str}/players", sync_to_thread=False)
    def create_player(site_id: FromPath[str], data: JSONBody[NewPlayer]) -> dict[str, Any]:
        """A verified player with `cash` in the main wallet, without the registration's captcha
        and OTP: for tests and benchmarks that need many players."""
        site = site_of(site_id)
        player = new_player(site, data.login, data.password, f"{data.login}@example.com")
        player.main.cash = money(data.cash)
        player.verified = True
        site.players[player.login.lower()] = player
        return {"login": player.login, "cash": str(player.main.cash)}

    @get("/sites/{site_id:str}/ledger", sync_to_thread=False)
    def ledger(site_id: FromPath[str]) -> list[dict[str, Any]]:
        return [
            {
                "login": e.login,
                "kind": e.kind,
                "amount": str(e.amount),
                "balanceAfter": str(e.balance_after),
                "reference": e.reference,
            }
            for e in site_of(site_id).ledger
        ]

    @get("/sites/{site_id:str}/contact-messages", sync_to_thread=False)
    def contact_messages(site_id: FromPath[str]) -> list[dict[str, Any]]:
        return list(site_of(site_id).contact_messages)

    @get("/sites/{site_id:str}/affiliates", sync_to_thread=False)
    def affiliates(site_id: FromPath[str]) -> dict[str, Any]:
        site = site_of(site_id)
        return {"hits": dict(site.affiliate_hits), "postbacks": list(site.affiliate_postbacks)}

    @get("/affiliate/postback", sync_to_thread=False)
    def affiliate_postback(
        campaignCode: FromQuery[str],
        login: FromQuery[str],
        siteid: FromQuery[str] = "aurora",
    ) -> dict[str, bool]:
        """The affiliate network's end of a sign-up postback (registration hands it out)."""
        site_of(siteid).affiliate_postbacks.append({"campaignCode": campaignCode, "login": login})
        return {"recorded": True}

    @put("/config", sync_to_thread=False)
    def configure(data: JSONBody[ConfigUpdate]) -> dict[str, float]:
        if data.idleTimeoutS is not None:
            state.idle_timeout_s = data.idleTimeoutS
        if data.depositApprovalDelayS is not None:
            state.deposit_approval_delay_s = data.depositApprovalDelayS
        return {"idleTimeoutS": state.idle_timeout_s, "depositApprovalDelayS": state.deposit_approval_delay_s}

    @get("/wire", sync_to_thread=False)
    def wire() -> dict[str, Any]:
        return wire_spec(state.wire)

    @put("/wire", sync_to_thread=False)
    def set_wire(data: JSONBody[WireSpec]) -> dict[str, Any]:
        for name, value in msgspec.structs.asdict(data).items():
            if value is not None:
                setattr(state.wire, WIRE_FIELDS[name], value)
        return wire_spec(state.wire)

    @delete("/wire", sync_to_thread=False)
    def reset_wire() -> None:
        """Back to how this sandbox was started."""
        state.wire = dataclasses.replace(settings.wire)

    @get("/wire/counts", sync_to_thread=False)
    def wire_counts() -> dict[str, int]:
        """What the wire did since the reset: `stickyMisses` (a session's call that reached
        another backend, answered `SESSION_EXPIRED`), `keepaliveCloses`."""
        return {"stickyMisses": 0, "keepaliveCloses": 0, **state.wire_counts}

    @post("/reset", sync_to_thread=False)
    def reset() -> dict[str, bool]:
        fresh = rebuild(settings)
        state.__dict__.update(fresh.__dict__)
        return {"reset": True}

    handlers = [
        health,
        calls,
        reset_calls,
        set_fault,
        clear_faults,
        clear_fault,
        switch_provider,
        expire,
        player_summary,
        create_player,
        ledger,
        contact_messages,
        affiliates,
        affiliate_postback,
        configure,
        wire,
        set_wire,
        reset_wire,
        wire_counts,
        reset,
    ]
    return [Router(path="/_sandbox", route_handlers=handlers)]
