"""Whether a platform answer keeps its route's contract: the one check the gateway's proxied path,
its own `/bff/*` calls and `python -m gateway check-upstream` all make of a plain (decoded) answer
(`breach`), and of a streamed answer's type (`media_breach`).

Tolerant where a real platform varies and strict where the product reads: fields the types do not
name are ignored (msgspec's default), a failure envelope (`success: false`, or any `code`) is held
only to the envelope, and a JSON route's answer must be JSON of its type. What it says names the
place and the kind, never a value (`Expected `str`, got `null` - at `$.result.redirectUrl``), so it
can be logged and shown to operators as it is.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.base import PlatformReply
from contracts.catalogue import Route

_ELSEWHERE = ("text/html", "application/xhtml", "text/xml", "application/xml", "javascript", "text/css")
"""Types a JSON route never answers with: a balancer's or CDN's page, a default site, a script."""
_decoders: dict[str, msgspec.json.Decoder[Any]] = {}
_envelope: msgspec.json.Decoder[Any] = msgspec.json.Decoder()
_reply: msgspec.json.Decoder[PlatformReply] = msgspec.json.Decoder(PlatformReply)


def breach(route: Route, status: int, content_type: str | None, body: bytes) -> str | None:
    """Why this answer of `route` breaks the platform's contract, or None when it keeps it.

    `body` is the answer as the platform meant it (any content-encoding undone). Answers that are
    not the route's to judge pass: 5xx (the platform failing, told as such), 204 and 304; a binary
    route's answer is held to its declared types (`media_breach`), not read."""
    if status >= 500 or status in (204, 304):
        return None
    if route.binary:
        return media_breach(route, content_type) if status < 300 else None
    kind = media_type(content_type)
    if any(marker in kind for marker in _ELSEWHERE):
        return f"answered {kind}, not JSON"
    try:
        _decoder(route).decode(body)  # the common case costs one decode
    except msgspec.ValidationError as exc:
        data = _envelope.decode(body)
        if isinstance(data, dict) and (data.get("success") is False or data.get("code")):
            return _held(_reply, body)  # a refusal: only the envelope is the platform's to keep
        if status >= 400 and isinstance(data, dict):
            return None  # an error of the platform's own, told as it came
        return _short(exc)
    except msgspec.DecodeError as exc:
        return f"not JSON ({_short(exc)})"
    return None


def media_type(content_type: str | None) -> str:
    """`Content-Type` without its parameters, lower case (`""` when there is none)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def _decoder(route: Route) -> msgspec.json.Decoder[Any]:
    found = _decoders.get(route.name)
    if found is None:
        found = _decoders[route.name] = msgspec.json.Decoder(route.response)
    return found


def _held(decoder: msgspec.json.Decoder[Any], body: bytes) -> str | None:
    try:
        decoder.decode(body)
    except msgspec.ValidationError as exc:
        return _short(exc)
    return None


def _short(exc: Exception) -> str:
    return str(exc)[:200]


def media_breach(route: Route, content_type: str | None) -> str | None:
    """Why a streamed answer's type is not one its route may have (a binary route's declared
    types; an upload's reply is JSON), or None."""
    kind = media_type(content_type)
    if route.binary:
        return (
            None
            if kind in route.media_types
            else f"answered {kind or 'no type'}, not {route.media_types[0]} or its like"
        )
    if kind in ("", "application/json") or kind.endswith("+json"):
        return None
    return f"answered {kind}, not JSON"
