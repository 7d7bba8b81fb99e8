"""An upstream's base URL as an operator gives it, in its one canonical spelling or refused.

`http(s)://host[:port][/path]`: scheme and host lower-cased, a default port and a trailing slash
dropped. Refused, with the code the console translates: anything but http and https
(`URL_SCHEME`); whitespace, control characters, backslashes, an empty or malformed host, a port
out of range (`URL_INVALID`); a user or password (`URL_CREDENTIALS`: they would sit in the
configuration, its history and the logs); a query or fragment (`URL_HAS_PATH_QUERY`); `.`, `..`
or empty path segments, or an encoded slash or dot (`URL_PATH`: `http://host/../..` would send
every call somewhere else than the URL reads).

A host has one spelling too, so that the allowed hosts (`gateway.config.allowed_hosts`) compare
what the gateway will really call: a trailing dot is dropped (`capi.example.` is `capi.example`),
an IPv6 address is written compressed and an IPv4-mapped one (`[::ffff:7f00:1]`) as the IPv4
address it reaches. Refused (`URL_HOST_FORM`): a host in any other character than ASCII (an IDN
is written in its punycode, `xn--`, form: a look-alike letter cannot pass for a Latin one),
percent-encoded host bytes, and an IPv4 address written other than as four decimal numbers
(`2130706433`, `0x7f.1`, `017700000001`, `127.1`: resolvers read them as 127.0.0.1).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$")
"""DNS labels (an IDN in its punycode, `xn--`, form); a bracketed IPv6 address is read by `ipaddress`."""
OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
DOTTED_QUAD = re.compile(rf"^(?:{OCTET}\.){{3}}{OCTET}$")
"""An IPv4 address in its one spelling: four decimal numbers from 0 to 255, no leading zeros."""
NUMERIC_LABEL = re.compile(r"^(?:[0-9]+|0x[0-9a-f]*)$")
"""A last label resolvers (and the WHATWG URL parser) take for an IPv4 address in some notation."""
ENCODED = re.compile(r"%(?:2f|5c|2e)", re.IGNORECASE)
DEFAULT_PORTS = {"http": 80, "https": 443}
SHAPE = "A base URL is http(s)://host[:port][/path]"


class BaseUrlError(ValueError):
    """Why a base URL is refused: `code` (the console translates it) and the words for anyone else."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def base_url(url: str) -> str:
    """`url` in canonical form (`HTTP://Capi.Example:80/v2/` -> `http://capi.example/v2`), or BaseUrlError."""
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url) or "\\" in url:
        raise BaseUrlError("URL_INVALID", "A base URL has no spaces, control characters or backslashes")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise BaseUrlError("URL_INVALID", SHAPE) from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise BaseUrlError("URL_SCHEME", "Use an http:// or https:// URL")
    if "@" in parts.netloc:
        raise BaseUrlError("URL_CREDENTIALS", "A base URL carries no user name or password")
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise BaseUrlError("URL_HAS_PATH_QUERY", "A base URL may have a path, but no query or fragment")
    if not url[len(parts.scheme) :].startswith("://") or port == 0:
        raise BaseUrlError("URL_INVALID", SHAPE)
    netloc = parts.netloc
    host = canonical_host(netloc.rpartition(":")[0] if ":" in netloc.rpartition("]")[2] else netloc)
    return f"{scheme}://{host}{'' if port in (None, DEFAULT_PORTS[scheme]) else f':{port}'}{_path(parts.path)}"


def canonical_host(host: str) -> str:
    """A URL's host (as written, an IPv6 address in brackets) in its one spelling, or BaseUrlError."""
    if not host.isascii() or "%" in host:
        raise BaseUrlError("URL_HOST_FORM", "Write the host in ASCII (an IDN in its xn-- form), none percent-encoded")
    host = host.lower()
    if host.startswith("[") and host.endswith("]"):
        return _ipv6(host[1:-1])
    host = host[:-1] if host.endswith(".") else host  # the root's dot: the same name
    if NUMERIC_LABEL.match(host.rpartition(".")[2]) and not DOTTED_QUAD.match(host):
        raise BaseUrlError("URL_HOST_FORM", "Write an IPv4 address as four numbers from 0 to 255: 10.0.0.5")
    if not HOST.match(host):
        raise BaseUrlError("URL_INVALID", SHAPE)
    return host


def _ipv6(address: str) -> str:
    try:
        parsed = ipaddress.IPv6Address(address)
    except ValueError:
        raise BaseUrlError("URL_INVALID", SHAPE) from None
    return str(parsed.ipv4_mapped) if parsed.ipv4_mapped is not None else f"[{parsed.compressed}]"


def _path(path: str) -> str:
    """The path without its trailing slash; refused when it has dot or empty segments or encoded separators."""
    segments = path.rstrip("/").split("/")[1:]
    if ENCODED.search(path) or any(segment in ("", ".", "..") for segment in segments):
        raise BaseUrlError("URL_PATH", "A base URL's path has no '.', '..' or empty segments and no encoded / or .")
    return "".join(f"/{segment}" for segment in segments)
