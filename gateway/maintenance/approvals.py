"""Changes waiting for a second operator, on skins whose entry in the skins file says
`approval = true`.

A change, a rollback or a canary start there is kept as a pending approval; another operator
approves it (it runs then, the way an immediate one does, validated again) or rejects it, each
with a reason. One's own is never theirs to approve (403 `SELF_APPROVAL`). Two operators deciding
at once: the first to claim it decides (`Shelf.claim`), the other is told it is decided. A pending
one expires a day after it was asked (`APPROVAL_EXPIRES_S`).
"""

from __future__ import annotations

import time

from gateway.maintenance.records import Approval, ApprovalState
from gateway.maintenance.shelf import Shelf


class Approvals:
    def __init__(self, shelf: Shelf[Approval]) -> None:
        self.shelf = shelf

    def get(self, approval_id: str) -> Approval | None:
        return self.shelf.records.get(approval_id)

    def listed(self, now: float) -> list[Approval]:
        """Pending ones first, oldest first; then the rest, newest first."""
        records = self.shelf.records.values()
        pending = sorted((a for a in records if a.state_at(now) == "pending"), key=lambda a: a.created)
        rest = sorted((a for a in records if a.state_at(now) != "pending"), key=lambda a: -a.created)
        return pending + rest

    async def add(self, approval: Approval) -> None:
        await self.shelf.put(approval.id, approval)

    async def claim(self, approval: Approval, holder: str) -> bool:
        return await self.shelf.claim(approval.id, holder)

    async def decide(
        self, approval: Approval, state: ApprovalState, by: str, reason: str, outcome: str | None = None
    ) -> Approval:
        approval.state, approval.outcome = state, outcome
        approval.ended, approval.endedBy, approval.endedReason = time.time(), by, reason
        await self.shelf.put(approval.id, approval)
        return approval
