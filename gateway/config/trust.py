"""The CAs an `https` upstream must chain to: the system's default trust, plus the operator's own
bundle (`UPSTREAM_CA_FILE`) for a platform served under a private or staging CA.

One context, made at start, is shared by the upstream pools and the console's probe, so that a
probe trusts exactly what the calls trust.
"""

from __future__ import annotations

import ssl
from pathlib import Path


def upstream_trust(ca_file: Path | None) -> ssl.SSLContext:
    """The system's CAs, and `ca_file`'s added to them (never instead: a skin on a public CA keeps
    working beside one on the operator's)."""
    context = ssl.create_default_context()
    if ca_file is not None:
        try:
            context.load_verify_locations(cafile=ca_file)
        except (OSError, ssl.SSLError) as exc:
            raise ValueError(f"UPSTREAM_CA_FILE {ca_file}: not a PEM bundle of certificates ({exc})") from None
    return context
