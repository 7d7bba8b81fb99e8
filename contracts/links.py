"""Links that come from the platform (a CMS editor types them): which ones a page of the site may
lead to. The gateway checks content answers with this rule before it keeps them, so a poisoned CMS
entry is blanked once instead of served to every player for the copy's life; the SPA applies the
same rule with the browser's own URL parser (`spa/src/lib/links.ts`), for every link it renders.

A link is kept when it is a path of the site (`/promotions`, `games?tab=slots`, `#top`) or an
absolute `http(s)` URL on one of the skin's own hosts, or an `https` URL on an origin the skin
allows (`Skin.link_hosts`: the sportsbook, the game providers). Everything else is refused: other
schemes (`javascript:`, `data:`, `vbscript:`, in any case and split by control characters),
protocol-relative (`//evil`), backslashes (`/\\evil`, which browsers read as `//evil`), encoded
slashes at the start (`/%2F%2Fevil`, `/%5Cevil`), control characters and spaces anywhere (browsers
strip or read them in ways the string never showed), credentials (`https://site@evil`), and hosts
that only look like an allowed one (IDN look-alikes are compared in their punycode).
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection
from typing import Annotated, Any
from urllib.parse import unquote, urlsplit

import msgspec

Link = Annotated[str, msgspec.Meta(extra={"platform_link": True})]
"""A content field holding a link the site renders: the gateway checks it before keeping content."""
_UNSAFE = re.compile(r"[\x00-\x20\x7f\\]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def allowed_link(raw: str, site_hosts: Collection[str], link_origins: Collection[str]) -> bool:
    """Whether a page of the site may lead to `raw` (`site_hosts` as the skin lists them, `host` or
    `host:port`, lower case; an origin is `https://host[:port]`)."""
    if not raw:
        return False
    # As typed, percent-decoded, and as an HTML page would read it (`javascript&colon;`): a client
    # that puts the value in markup or decodes a path must not find another link inside.
    readings = (raw, unquote(raw), html.unescape(raw))
    if any(_UNSAFE.search(seen) or seen.startswith("//") for seen in readings):
        return False
    if not _SCHEME.match(raw):
        return not any(_SCHEME.match(seen) for seen in readings)  # a path, a query, a fragment of the site
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        return False
    scheme, host = parts.scheme.lower(), _ascii_host(parts.hostname or "")
    if scheme not in ("http", "https") or not host or parts.username is not None or "@" in parts.netloc:
        return False
    if (host if port is None else f"{host}:{port}") in site_hosts:
        return True
    origin = f"https://{host}" + (f":{port}" if port not in (None, 443) else "")
    return scheme == "https" and origin in link_origins


def _ascii_host(host: str) -> str:
    """The host as a browser compares it: lower case, an internationalised name in punycode."""
    try:
        return host.lower().encode("idna").decode("ascii")
    except UnicodeError:
        return ""


def link_paths(kind: Any) -> list[tuple[str | int, ...]]:
    """Where `Link` fields sit in a response type: each a path of field names, with `-1` for
    every item of a list (`("data", -1, "routerLink")`)."""
    return _paths(msgspec.inspect.type_info(kind), ())


def _paths(info: msgspec.inspect.Type, at: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    if isinstance(info, msgspec.inspect.Metadata):
        if (info.extra or {}).get("platform_link"):
            return [at]
        return _paths(info.type, at)
    if isinstance(info, msgspec.inspect.StructType):
        return [path for f in info.fields for path in _paths(f.type, (*at, f.encode_name))]
    if isinstance(info, (msgspec.inspect.ListType, msgspec.inspect.SetType, msgspec.inspect.FrozenSetType)):
        return _paths(info.item_type, (*at, -1))
    if isinstance(info, msgspec.inspect.UnionType):
        return [path for member in info.types for path in _paths(member, at)]
    return []


def blank_refused(data: Any, paths: list[tuple[str | int, ...]], allowed: Any) -> list[tuple[str, str]]:
    """Blanks (to "") every link at `paths` in decoded JSON `data` that `allowed(value)` refuses;
    what it blanked, as (where, value)."""
    blanked: list[tuple[str, str]] = []
    for path in paths:
        _walk(data, path, (), allowed, blanked)
    return blanked


Path = tuple[str | int, ...]


def _walk(node: Any, path: Path, at: tuple[str, ...], allowed: Any, out: list[tuple[str, str]]) -> None:
    step, rest = path[0], path[1:]
    if step == -1:
        if isinstance(node, list):
            for i, item in enumerate(node):
                _walk(item, rest, (*at, str(i)), allowed, out)
        return
    if not isinstance(node, dict) or step not in node:
        return
    if rest:
        _walk(node[step], rest, (*at, str(step)), allowed, out)
    elif isinstance(node[step], str) and not allowed(node[step]):
        out.append((".".join((*at, str(step))), node[step]))
        node[step] = ""
