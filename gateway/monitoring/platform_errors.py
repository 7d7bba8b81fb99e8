"""The share of a skin's platform answers that were errors sent as `200 {"success": false}`: what
the timeline's error-storm detector (`gateway.monitoring.watch`) reads.

Not counted yet: `platform_error_share` answers None (no storm is ever seen) until the per-skin
counts of `success: false` answers exist; the detector and its thresholds do not change then.
"""

from __future__ import annotations

STORM_AT = 0.25
"""A quarter of the answers or more failing: a storm begins."""
CALM_AT = 0.05
"""Back under a twentieth: it ends (between the two, it stays as it was)."""


def platform_error_share(skin: str) -> float | None:
    """The share (0..1) of the skin's recent platform answers that were `success: false`; None: not counted."""
    return None


def storm(before: bool, share: float | None) -> bool:
    """Whether the skin is in an error storm now, having been in one (`before`) or not."""
    if share is None:
        return before
    return share >= CALM_AT if before else share >= STORM_AT
