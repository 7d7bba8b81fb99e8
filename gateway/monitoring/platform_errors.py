"""When a skin's platform is in an error storm: the share of its answers sent as `200 {"success":
false}` (`Series.storm_share`, over the last two minutes) at `STORM_AT` or more begins one, under
`CALM_AT` ends it; between the two it stays as it was, so a share hovering at the threshold is one
storm, not a line of them in the timeline. `STORM_AT` is the console's and the alert's threshold
(`gateway.monitoring.series.STORM_SHARE`, `BffSessionExpiredStorm` counts `SESSION_EXPIRED` alone).
"""

from __future__ import annotations

from gateway.monitoring.series import STORM_SHARE

STORM_AT = STORM_SHARE
"""A fifth of the answers or more refused: a storm begins."""
CALM_AT = 0.05
"""Back under a twentieth: it ends."""


def storm(before: bool, share: float | None) -> bool:
    """Whether the skin is in an error storm now, having been in one (`before`) or not; `share`
    None: too few answers to judge, it stays as it was."""
    if share is None:
        return before
    return share >= CALM_AT if before else share >= STORM_AT
