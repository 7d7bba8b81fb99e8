"""A change kept for later (scheduled, or approved), run: the way an immediate one goes
(`changes.run_change`, `history.run_rollback`, a canary's start), on behalf of the operator who
asked, checked again now: that they still may (their account, its role and its skins, as the
operators file says now), the base version, the URL's host and its probe and contract. What it
came to is one line (`Ran.outcome`), written on the record, in the trail and the timeline.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from gateway.accounts.audit import Audit
from gateway.accounts.caller import Actor
from gateway.accounts.roles import ADMIN_TOKEN_NAME, Operator
from gateway.accounts.scopes import outside
from gateway.console.canaries.start import run_scheduled
from gateway.console.changes import Asked, run_change
from gateway.console.history import run_rollback
from gateway.http.asgi import Outgoing, RequestContext
from gateway.maintenance.records import Planned
from gateway.parts import Gateway


@dataclass(frozen=True)
class Ran:
    ok: bool
    result: str
    version: str | None = None


NO_CANARIES = Ran(False, "CANARY_UNAVAILABLE: canaries cannot be started on this build")


def on_behalf(gateway: Gateway, planned: Planned) -> Operator | None:
    """The operator who asked, as they are now (None: gone, disabled, no longer an operator, or
    no longer allowed the skin)."""
    accounts = gateway.accounts
    if planned.via == "token":
        if planned.by == ADMIN_TOKEN_NAME:
            return Operator(ADMIN_TOKEN_NAME, "admin", "token")
        roster = accounts.operators.roster.tokens.values() if accounts is not None else []
        found = next(((t.role, t.skins) for t in roster if t.name == planned.by), None)
    else:
        account = accounts.operators.account(planned.by) if accounts is not None else None
        found = (account.role, account.skins) if account is not None else None
    if found is None:
        return None
    operator = Operator(planned.by, found[0], "token" if planned.via == "token" else "console", None, found[1])
    return operator if operator.may("operator") and not outside(operator, [planned.skin]) else None


async def carry_out(gateway: Gateway, audit: Audit, planned: Planned) -> Ran:
    operator = on_behalf(gateway, planned)
    if operator is None:
        return Ran(False, f"OPERATOR_UNAUTHORISED: {planned.by} may no longer change {planned.skin}")
    caller, ctx = Actor(operator, audit), RequestContext(request_id=planned.id)
    if planned.kind == "canary" and gateway.canaries is None:
        return NO_CANARIES
    if planned.kind == "canary":
        return ran(await run_scheduled(gateway, caller, planned.asked, ctx))
    asked = msgspec.convert(planned.asked, Asked)
    asked.at = None
    answer = await (run_change if planned.kind == "change" else run_rollback)(gateway, caller, asked, ctx)
    return ran(answer)


def ran(response: Outgoing) -> Ran:
    """The outcome of a change's response, in one line."""
    body = msgspec.json.decode(response.body) if response.body else {}
    if response.status == 200:
        return Ran(True, f"applied {body.get('version')}", body.get("version"))
    if response.status == 201:  # a canary's start
        return Ran(True, f"started {body['canary']['id']}")
    errors = body.get("errors") or []
    if errors:
        first = errors[0]
        return Ran(False, f"{first.get('code')}: {first.get('field')}: {first.get('message')}")
    return Ran(False, f"{body.get('code', response.status)}: {body.get('message', '')}".rstrip(": "))
