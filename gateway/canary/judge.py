"""One check of a canary: the new side's figures against the old side's over the same window.

Pure: the controller (`gateway.canary.controller`) reads both sides' `SideFigures` (counted per
side by `gateway.canary.figures`) and keeps the `StepVerdict`. The new side fails on what a player
would notice first: server errors, the platform refusing more, answers slower than the bar (and
slower than the old side: a platform that is slow for everyone is not the new upstream's fault),
fewer successful logins, fewer answered money calls. Every reason is worded for the trail
("p99 812 ms > 500 ms at 10 %"); the defaults and why are in docs/canary.md.
"""

from __future__ import annotations

from typing import Literal

from gateway.canary.model import SideFigures, StepVerdict, Thresholds

P99_MARGIN = 1.1
"""The new side's p99 over the bar fails only when it is also over the old side's by this factor:
two sides equally slow are the platform's (or the hour's) doing, not the change's."""

MIN_OF_A_KIND = 5
"""Sign-ins and money calls are judged once the new side had this many in the window: one player
mistyping a password among two sign-ins is not a platform failing half its logins."""


def judge(
    old: SideFigures, new: SideFigures, thresholds: Thresholds, *, at: float, step: int, share: float
) -> StepVerdict:
    """`passed`, `failed` with its reasons, or `too-few` answers on the new side to say."""
    outcome: Literal["passed", "failed", "too-few"] = "too-few"
    reasons: list[str] = []
    if new.answers >= thresholds.min_answers:
        where = f"at {_percent(share)}"
        reasons = [f"{reason} {where}" for reason in _failures(old, new, thresholds)]
        outcome = "failed" if reasons else "passed"
    return StepVerdict(at=at, step=step, share=share, outcome=outcome, reasons=reasons, old=old, new=new)


def _failures(old: SideFigures, new: SideFigures, t: Thresholds) -> list[str]:
    found = []
    if new.errors is not None and _over(new.errors, t.max_error_share):
        found.append(f"5xx {_percent(new.errors)} > {_percent(t.max_error_share)}")
    if new.refused is not None and _over(new.refused - (old.refused or 0.0), t.max_refusal_rise):
        found.append(f"refusals {_percent(new.refused)} vs {_percent(old.refused or 0.0)} on the old side")
    if new.p99_s is not None and _over(new.p99_s, t.max_p99_s) and not _as_slow(old.p99_s, new.p99_s):
        found.append(f"p99 {_ms(new.p99_s)} > {_ms(t.max_p99_s)}")
    logins = _drop(old.login_success, new.login_success) if new.logins >= MIN_OF_A_KIND else None
    if logins is not None and _over(logins, t.max_login_drop):
        found.append(f"logins {_percent(new.login_success or 0.0)} succeed, {_percent(logins)} under the old side")
    money = _drop(old.money_success, new.money_success) if new.money >= MIN_OF_A_KIND else None
    if money is not None and _over(money, t.max_money_drop):
        found.append(f"money calls {_percent(new.money_success or 0.0)} answered, {_percent(money)} under the old side")
    return found


def _over(value: float, bar: float) -> bool:
    """Past the bar, not merely by a float's rounding (0.07 - 0.02 is over 0.05 in binary)."""
    return value > bar + 1e-9


def _as_slow(old_p99_s: float | None, new_p99_s: float) -> bool:
    return old_p99_s is not None and new_p99_s <= old_p99_s * P99_MARGIN


def _drop(old: float | None, new: float | None) -> float | None:
    """How far the new side's success share is under the old side's (under all-succeeding when
    the old side had none to compare); None when the new side had none."""
    if new is None:
        return None
    return (old if old is not None else 1.0) - new


def _percent(share: float) -> str:
    value = share * 100
    return f"{value:.0f} %" if value >= 10 or value == round(value) else f"{value:.1f} %"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"
