"""Who asks for a change on the admin listener (the guard's `Operator`), and the audit trail their
requests are written to: the `caller` the changes', canaries' and plans' routes are given."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar.di import NamedDependency, Provide

from gateway.accounts.audit import Action, Audit, AuditEntry, AuditResult
from gateway.accounts.roles import Operator
from gateway.config.history import Author

API_REASON = "NONE_GIVEN_VIA_API"
"""The reason recorded for a bearer API call that gave none: a code, which the console words in the
operator's language (the console itself always sends a reason)."""


@dataclass(frozen=True)
class Actor:
    """Who asks (the guard's `Operator`), and the audit trail their requests are written to."""

    operator: Operator
    audit: Audit

    def reason(self, given: str | None) -> str | None:
        """What they gave; a token's call that gave none says so (a console call always gives one)."""
        return (given or "").strip() or (API_REASON if self.operator.via == "token" else None)

    def author(self, reason: str | None) -> Author:
        return Author(self.operator.name, self.operator.via, self.reason(reason))

    async def record(self, action: Action, outcome: AuditResult, reason: str | None, **fields: Any) -> None:
        who = self.operator
        entry = AuditEntry(action, who.name, who.via, who.address, outcome, reason=self.reason(reason), **fields)
        await self.audit.record(entry)


def _caller(operator: NamedDependency[Operator], audit: NamedDependency[Audit]) -> Actor:
    return Actor(operator, audit)


DEPENDENCIES = {"caller": Provide(_caller, sync_to_thread=False)}
"""The `caller` of the changes' routes (from the guard's `operator` and the `audit` trail)."""
