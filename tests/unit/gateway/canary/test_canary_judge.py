"""One check of a canary: what the new side fails on against the old side, and what is too few to say."""

from __future__ import annotations

import pytest

from gateway.canary.judge import judge
from gateway.canary.model import SideFigures, StepVerdict, Thresholds

DEFAULTS = Thresholds()
HEALTHY = SideFigures(
    answers=400, errors=0.0, refused=0.02, p99_s=0.12, logins=40, login_success=0.95, money=60, money_success=1.0
)


def checked(new: SideFigures, old: SideFigures = HEALTHY, thresholds: Thresholds = DEFAULTS) -> StepVerdict:
    return judge(old, new, thresholds, at=1000.0, step=1, share=0.1)


def like(**changed: object) -> SideFigures:
    fields = {f: getattr(HEALTHY, f) for f in HEALTHY.__struct_fields__}
    return SideFigures(**{**fields, **changed})  # type: ignore[arg-type]


def test_a_new_side_as_good_as_the_old_passes_and_keeps_both_sides_figures() -> None:
    verdict = checked(like(answers=50))
    assert (verdict.outcome, verdict.reasons) == ("passed", [])
    assert (verdict.old.answers, verdict.new.answers, verdict.step, verdict.share) == (400, 50, 1, 0.1)


@pytest.mark.parametrize("answers", [0, 1, 19])
def test_fewer_answers_than_the_minimum_give_no_verdict_however_bad_they_are(answers: int) -> None:
    verdict = checked(like(answers=answers, errors=1.0, p99_s=9.0, login_success=0.0))
    assert (verdict.outcome, verdict.reasons) == ("too-few", [])


def test_the_minimum_itself_is_enough_to_judge() -> None:
    assert checked(like(answers=20, errors=0.5)).outcome == "failed"


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        (like(errors=0.032), "5xx 3.2 % > 1 % at 10 %"),
        (like(refused=0.12), "refusals 12 % vs 2 % on the old side at 10 %"),
        (like(p99_s=0.812), "p99 812 ms > 500 ms at 10 %"),
        (like(login_success=0.80), "logins 80 % succeed, 15 % under the old side at 10 %"),
        (like(money_success=0.95), "money calls 95 % answered, 5.0 % under the old side at 10 %"),
    ],
)
def test_each_threshold_fails_the_check_with_its_reason_in_words(new: SideFigures, reason: str) -> None:
    verdict = checked(new)
    assert (verdict.outcome, verdict.reasons) == ("failed", [reason])


def test_every_threshold_crossed_is_named() -> None:
    verdict = checked(like(errors=0.5, p99_s=2.0, money_success=0.5))
    assert verdict.outcome == "failed"
    assert [reason.split(" ")[0] for reason in verdict.reasons] == ["5xx", "p99", "money"]


def test_at_the_threshold_itself_the_check_passes() -> None:
    edge = like(errors=0.01, refused=0.07, p99_s=0.5, login_success=0.85, money_success=0.98)
    assert checked(edge).outcome == "passed"


def test_a_slow_old_side_makes_a_slow_new_side_pass_p99() -> None:
    slow_platform = like(p99_s=0.9)
    assert checked(like(p99_s=0.95), old=slow_platform).outcome == "passed"
    assert checked(like(p99_s=1.2), old=slow_platform).reasons == ["p99 1200 ms > 500 ms at 10 %"]


def test_an_old_side_without_figures_is_no_excuse_for_a_slow_new_one() -> None:
    assert checked(like(p99_s=0.7), old=SideFigures()).outcome == "failed"


def test_shares_the_new_side_could_not_measure_are_not_judged() -> None:
    unmeasured = SideFigures(answers=30)  # no logins, no money calls, no latencies counted
    assert checked(unmeasured).outcome == "passed"


def test_without_logins_on_the_old_side_the_new_sides_logins_are_held_to_all_succeeding() -> None:
    old = like(logins=0, login_success=None)
    assert checked(like(login_success=0.95), old=old).outcome == "passed"
    reasons = checked(like(login_success=0.85), old=old).reasons
    assert reasons == ["logins 85 % succeed, 15 % under the old side at 10 %"]


def test_thresholds_set_per_change_are_the_ones_used() -> None:
    strict = Thresholds(max_p99_s=0.1, min_answers=5)
    fast_old = like(p99_s=0.05)
    assert checked(like(answers=5, p99_s=0.12), fast_old, strict).reasons == ["p99 120 ms > 100 ms at 10 %"]
    lenient = Thresholds(max_error_share=0.5)
    assert checked(like(errors=0.2), thresholds=lenient).outcome == "passed"


def test_the_share_is_worded_as_the_step_is() -> None:
    verdict = judge(HEALTHY, like(errors=0.5), DEFAULTS, at=1.0, step=0, share=0.01)
    assert verdict.reasons == ["5xx 50 % > 1 % at 1 %"]


def test_a_few_sign_ins_or_money_calls_are_not_judged_one_mistyped_password_is_no_failing_platform() -> None:
    assert checked(like(logins=4, login_success=0.5, money=4, money_success=0.5)).outcome == "passed"
    assert checked(like(logins=5, login_success=0.6)).outcome == "failed"
