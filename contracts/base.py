"""The base Struct every wire type derives from, and the shapes shared by all calls."""

from __future__ import annotations

import msgspec


class Wire(msgspec.Struct, kw_only=True):
    """A type that crosses the wire. Field names are the platform's, never renamed."""


class PlatformReply(Wire, kw_only=True):
    """The platform's envelope: failures are `success: false` with a description or code.

    An expired session is HTTP 200 with `code: "SESSION_EXPIRED"` (docs/platform.md).
    """

    success: bool = True
    code: str | None = None
    description: str | None = None
    message: str | None = None


class FieldErrors(PlatformReply, kw_only=True):
    """A rejected form: `description` is the first message; `errors` names each field.

    `errors` is the sandbox's addition (the platform shows one description); the
    gateway passes it through and the SPA may show it next to the field.
    """

    errors: dict[str, str] | None = None


class BffError(Wire, kw_only=True):
    """The one error shape the gateway itself answers with (502, 504, 403, 404, 409, 429...)."""

    message: str
    code: str
    requestId: str


SESSION_EXPIRED = "SESSION_EXPIRED"

PLATFORM_CODES: frozenset[str] = frozenset(
    {
        SESSION_EXPIRED,
        "VALIDATION",
        "INVALID_TOKEN",
        "ALREADY_VERIFIED",
        "UNKNOWN_PROVIDER",
        "PROVIDER_DISABLED",
        "BAD_REQUEST",
        "INVALID_SITE_ID",
        "INVALID_XSRF_TOKEN",
    }
)
"""The `code`s the platform is known to send with `success: false` (docs/platform.md, the sandbox):
the label values the gateway counts them by; any other code counts as `other`, none as `none`."""
