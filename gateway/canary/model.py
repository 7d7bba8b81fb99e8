"""A canary as every instance sees it: where it stands, what it is judged by, what it was judged.

One record per skin (`bff:canary:<skin>` with Redis), written only by the controller that holds
the lease (`gateway.canary.controller`) and by the operators' actions, each by compare-and-set on
`revision`. The routing (`gateway.canary.routing`) reads the last record this instance saw,
without I/O; the figures (`gateway.canary.figures`) are counted per side beside it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

State = Literal["running", "paused", "promoted", "rolled-back", "aborted"]
Side = Literal["old", "new"]
LIVE_STATES: tuple[State, ...] = ("running", "paused")
"""A canary in one of these still sends a share of the skin's players to its new upstream."""


class Step(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True):
    share: float
    """The share (0 < share <= 1) of new sessions and visitors sent to the new upstream."""
    hold_s: float
    """How long the step runs, judged every `Thresholds.check_every_s`, before the next one."""


DEFAULT_STEPS = (Step(0.01, 300.0), Step(0.10, 300.0), Step(0.50, 300.0), Step(1.0, 300.0))


class Thresholds(msgspec.Struct, rename="camel", forbid_unknown_fields=True, frozen=True, kw_only=True):
    """What a check fails on; the defaults and why are in docs/canary.md."""

    max_error_share: float = 0.01
    """The new side's share of 5xx (and of answers that broke the platform's contract): over 1 %
    fails (Flagger's default success rate of 99 %)."""
    max_refusal_rise: float = 0.05
    """The new side's share of the platform's `success: false` may exceed the old side's by this."""
    max_p99_s: float = 0.5
    """The new side's p99 over this fails, unless the old side's is as slow (Flagger: 500 ms)."""
    max_login_drop: float = 0.10
    """The new side's share of successful logins may be this much under the old side's."""
    max_money_drop: float = 0.02
    """The new side's share of answered money calls may be this much under the old side's."""
    min_answers: int = 20
    """A check with fewer answers on the new side gives no verdict (too few to judge)."""
    failed_checks: int = 3
    """Failed checks in one step that roll the canary back."""
    check_every_s: float = 10.0


class SideFigures(msgspec.Struct, rename="camel", frozen=True, kw_only=True):
    """One side's figures over a check's window."""

    answers: int = 0
    errors: float | None = None
    """Share of 5xx (and contract breaches) among the answers."""
    refused: float | None = None
    """Share of the platform's `success: false` among the answers."""
    p99_s: float | None = None
    logins: int = 0
    login_success: float | None = None
    money: int = 0
    money_success: float | None = None


class StepVerdict(msgspec.Struct, rename="camel", frozen=True, kw_only=True):
    at: float
    step: int
    share: float
    outcome: Literal["passed", "failed", "too-few"]
    reasons: list[str] = []
    """What failed, in words the trail keeps ("p99 812 ms > 500 ms at 10 %")."""
    old: SideFigures = SideFigures()
    new: SideFigures = SideFigures()


class Canary(msgspec.Struct, rename="camel", kw_only=True):
    id: str
    skin: str
    upstream: str
    """The upstream's name in the skin (`api`, `capi`, `sbapi`, `rest`)."""
    before: str
    """The base URL the skin's configuration had when the canary started (the old side)."""
    after: str
    """The new base URL (the new side)."""
    steps: list[Step]
    thresholds: Thresholds
    state: State = "running"
    step: int = 0
    step_started: float = 0.0
    started: float = 0.0
    started_by: str = ""
    reason: str = ""
    base_version: str = ""
    """The configuration version it was started from."""
    failed: int = 0
    """Failed checks in the current step."""
    last_check: float = 0.0
    verdicts: list[StepVerdict] = []
    ended: float | None = None
    ended_by: str | None = None
    ended_reason: str | None = None
    promoted_version: str | None = None
    drain_until: float | None = None
    """After promotion: until when the sessions started on the old side keep it (their longest life)."""
    revision: int = 0

    @property
    def live(self) -> bool:
        return self.state in LIVE_STATES

    @property
    def share(self) -> float:
        """The share sent to the new upstream now (0 once it is over)."""
        return self.steps[self.step].share if self.live else 0.0
