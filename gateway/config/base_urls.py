"""An upstream's base URL as an operator gives it, in its one canonical spelling or refused.

`http(s)://host[:port][/path]`: scheme and host lower-cased, a default port and a trailing slash
dropped. Refused, with the code the console translates: anything but http and https
(`URL_SCHEME`); whitespace, control characters, backslashes, an empty or malformed host, a port
out of range (`URL_INVALID`); a user or password (`URL_CREDENTIALS`: they would sit in the
configuration, its history and the logs); a query or fragment (`URL_HAS_PATH_QUERY`); `.`, `..`
or empty path segments, or an encoded slash or dot (`URL_PATH`: `http://host/../..` would send
every call somewhere else than the URL reads).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$")
"""DNS labels (an IDN in its punycode, `xn--`, form) or a bracketed IPv6 address."""
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
    host = (parts.hostname or "").lower()
    host = f"[{host}]" if ":" in host else host  # urlsplit drops an IPv6 address's brackets
    if not url[len(parts.scheme) :].startswith("://") or not HOST.match(host) or port == 0:
        raise BaseUrlError("URL_INVALID", SHAPE)
    return f"{scheme}://{host}{'' if port in (None, DEFAULT_PORTS[scheme]) else f':{port}'}{_path(parts.path)}"


def _path(path: str) -> str:
    """The path without its trailing slash; refused when it has dot or empty segments or encoded separators."""
    segments = path.rstrip("/").split("/")[1:]
    if ENCODED.search(path) or any(segment in ("", ".", "..") for segment in segments):
        raise BaseUrlError("URL_PATH", "A base URL's path has no '.', '..' or empty segments and no encoded / or .")
    return "".join(f"/{segment}" for segment in segments)
