"""The platform's check of a change's new base URLs (`gateway.config.conformity`), as the console's
previews show it and its applies hold to it: a URL that does not speak the platform is refused
unless the operator overrides the check with a reason, and the audit trail says which."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import msgspec

from contracts.catalogue import UPSTREAMS, Upstream
from gateway.config.conformity import Conformity, conformity
from gateway.config.history import Change
from gateway.http.errors import FieldError
from gateway.parts import Gateway

CHECK_WITHIN_S = 3.0
"""Each documented call of a preview's or an apply's check, as long as its probe may take."""


class Override(msgspec.Struct):
    """Apply although the new base URL failed the platform's check: why (3-500 characters), audited."""

    reason: str | None = None


class Overriding(Protocol):
    """What a change or rollback asks (`gateway.console.changes.Asked`) that the check reads."""

    @property
    def baseVersion(self) -> str | None: ...
    @property
    def override(self) -> Override | None: ...


class Checked(Conformity, rename="camel"):
    """A new base URL's check for one skin's upstream."""

    skin: str = ""


async def conformities(gateway: Gateway, changes: list[Change]) -> list[Checked]:
    """Each changed upstream's new base URL, checked with its documented calls for its skin."""
    site_ids = {skin.id: skin.site_id for skin in gateway.config.skins.all}
    wanted = [c for c in changes if c.after and c.upstream in UPSTREAMS]

    async def one(change: Change) -> Checked:
        upstream: Upstream = change.upstream  # type: ignore[assignment]  # one of UPSTREAMS, as just seen
        site_id = site_ids.get(change.skin, change.skin)
        found = await conformity(
            change.after or "", upstream, site_id, within_s=CHECK_WITHIN_S, context=gateway.clients.ssl_context
        )
        return Checked(**msgspec.structs.asdict(found), skin=change.skin)

    return list(await asyncio.gather(*(one(change) for change in wanted)))


async def contract(
    gateway: Gateway, asked: Overriding, changes: list[Change], field: str, *, probe: bool = True
) -> tuple[list[FieldError], dict[str, Any] | None]:
    """The platform's check of an apply's new base URLs: the field error that refuses it (none when
    every one speaks the platform, or the operator overrode the check with a reason), and what the
    audit trail says of it (None: not checked, as a change that does not probe is not)."""
    stale = asked.baseVersion is not None and asked.baseVersion != gateway.config.version
    if not probe or not gateway.settings.probe_upstreams or stale:  # a stale one is a conflict: commit says so
        return [], None
    found = await conformities(gateway, changes)
    # A URL that answered nothing at all breaks no contract: the probe refuses it (URL_UNREACHABLE).
    answered = [c for c in found if any(call.status is not None for call in c.calls)]
    failed = [f"skins[{c.skin}].upstreams.{c.upstream}: {c.summary}" for c in answered if not c.ok]
    account: dict[str, Any] = {"ok": all(c.ok for c in found), "checks": [c.summary for c in found]}
    if not failed:
        return [], account
    if asked.override is None:
        return [FieldError(field, "CONTRACT_BROKEN", "; ".join(failed))], account
    account["overridden"] = (asked.override.reason or "").strip()
    return [], account
