"""Where a skin's upstreams may point: the deployment's allowed hosts (docs/allowed-hosts.md).

A dynamically configured proxy must only call hosts it was explicitly allowed to (the IETF's
browser-based-apps BFF text): an operator, or whoever holds an operator's session, may move a
skin's upstream, with every player's platform session, only to a host the deployment names. The
list is set where an operator's session cannot reach it: the skins file (`allowed_hosts` at its
top for every skin, and in a skin for that one) and the environment (`BFF_ALLOWED_HOSTS`). The
console only shows it. A skin's own upstream hosts in the skins file (their host and port) are
always allowed; nothing else is unless listed, so an empty list keeps a skin on its file's hosts.

A pattern is a host (`capi.example.com`, `10.0.0.5`, `[2001:db8::5]`) or `*.` and a domain
(`*.platform.example`: one or more labels under it, never the domain itself), with a port or
without (any port). Hosts compare in `gateway.config.base_urls`' one spelling, so a trailing dot,
an IPv4-mapped IPv6 address or upper case cannot pass for an allowed host, and the forms that
could (numeric IPv4 notations, percent-encoding, non-ASCII) are refused before they are compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from gateway.config.base_urls import DEFAULT_PORTS, BaseUrlError, base_url, canonical_host
from gateway.config.history import is_setting

EVERY = "*"
"""The environment's name for every skin: `*=*.shared.example`."""
ENV_FORMAT = "skin=pattern,pattern;*=pattern (e.g. aurora=*.platform.example,capi.example.com;*=10.0.0.5:8443)"
Overrides = Mapping[str, Mapping[str, str]]
"""Skin id -> upstream name -> base URL (`gateway.config.history.Overrides`)."""


@dataclass(frozen=True)
class HostPattern:
    host: str
    """In its one spelling; a wildcard's domain without its `*.`."""
    wildcard: bool = False
    port: int | None = None
    """None: any port."""

    def matches(self, host: str, port: int) -> bool:
        if self.port is not None and port != self.port:
            return False
        return host.endswith(f".{self.host}") if self.wildcard else host == self.host

    def __str__(self) -> str:
        return f"{'*.' if self.wildcard else ''}{self.host}{'' if self.port is None else f':{self.port}'}"


def host_pattern(text: str) -> HostPattern:
    """`capi.example.com`, `*.platform.example`, `10.0.0.5:8443`, `[::1]:9000` as a pattern, or ValueError."""
    given = text.strip()
    wildcard = given.startswith("*.")
    rest = given[2:] if wildcard else given
    try:
        parts = urlsplit(f"http://{rest}")
        port = parts.port
        if not rest or parts.netloc != rest or port == 0:
            raise ValueError
        host = canonical_host(rest.rpartition(":")[0] if ":" in rest.rpartition("]")[2] else rest)
    except (ValueError, BaseUrlError):
        raise ValueError(f"{text!r} is not a host pattern (host, *.domain, either with :port)") from None
    if wildcard and (host.startswith("[") or host.replace(".", "").isdigit()):
        raise ValueError(f"{text!r}: an address is allowed as itself, never with *.")
    return HostPattern(host, wildcard, port)


def host_patterns(texts: Iterable[str], where: str) -> tuple[HostPattern, ...]:
    """Each of `texts` as a pattern; ValueError naming `where` and the one at fault."""
    patterns = []
    for text in texts:
        try:
            patterns.append(host_pattern(text))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    return tuple(patterns)


def host_and_port(url: str) -> tuple[str, int]:
    """The host (in its one spelling) and port a base URL calls; BaseUrlError when it is not one."""
    parts = urlsplit(base_url(url))
    host = parts.netloc.rpartition(":")[0] if parts.port is not None else parts.netloc
    return host, parts.port or DEFAULT_PORTS[parts.scheme]


def allows(patterns: Iterable[HostPattern], url: str) -> bool:
    """Whether base URL `url` calls a host one of `patterns` names (False: not a base URL at all)."""
    try:
        host, port = host_and_port(url)
    except BaseUrlError:
        return False
    return any(pattern.matches(host, port) for pattern in patterns)


def own(urls: Iterable[str]) -> tuple[HostPattern, ...]:
    """The hosts and ports of a skin's upstreams as its skins file gives them: always allowed."""
    patterns = []
    for url in urls:
        try:
            host, port = host_and_port(url)
        except BaseUrlError:
            continue  # a file value base_url refuses: nothing to allow beside it
        patterns.append(HostPattern(host, port=port))
    return tuple(patterns)


@dataclass(frozen=True)
class AllowedHosts:
    """The patterns a deployment allows beside each skin's own hosts: the environment's
    (`BFF_ALLOWED_HOSTS`, in `Settings`) and the skins file's, put together by `with_file`."""

    every: tuple[HostPattern, ...] = ()
    skins: Mapping[str, tuple[HostPattern, ...]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str, where: str = "BFF_ALLOWED_HOSTS") -> AllowedHosts:
        """`aurora=*.platform.example,capi.example.com;*=*.shared.example`; ValueError naming the fault."""
        every: list[HostPattern] = []
        skins: dict[str, list[HostPattern]] = {}
        for part in filter(None, (p.strip() for p in text.split(";"))):
            skin, equals, listed = part.partition("=")
            if not equals or not skin.strip():
                raise ValueError(f"{where}: {part!r} is not {ENV_FORMAT}")
            patterns = host_patterns(filter(None, (p.strip() for p in listed.split(","))), f"{where} {skin.strip()}")
            (every if skin.strip() == EVERY else skins.setdefault(skin.strip(), [])).extend(patterns)
        return cls(tuple(every), {skin: tuple(patterns) for skin, patterns in skins.items()})

    def with_file(self, every: Iterable[HostPattern], skins: Mapping[str, Iterable[HostPattern]]) -> AllowedHosts:
        """These patterns and the skins file's (`every` for every skin, `skins` per skin)."""
        ids = set(self.skins) | set(skins)
        merged = {skin: (*self.skins.get(skin, ()), *skins.get(skin, ())) for skin in ids}
        return AllowedHosts((*self.every, *every), merged)

    def of(self, skin_id: str, file_urls: Iterable[str]) -> tuple[HostPattern, ...]:
        """Every host `skin_id` may point at: its own (`file_urls`, its upstreams in the skins file), then these."""
        return tuple(dict.fromkeys((*own(file_urls), *self.every, *self.skins.get(skin_id, ()))))

    def kept(self, file_bases: Mapping[str, Mapping[str, str]], overrides: Overrides) -> tuple[Overrides, list[str]]:
        """`overrides` without those to a host their skin may not point at, and a sentence for each dropped
        (a kept override read at start, or after the allowed hosts narrowed, is not applied)."""
        kept: dict[str, dict[str, str]] = {}
        dropped = []
        for skin_id, upstreams in overrides.items():
            if skin_id not in file_bases:  # the skin left the file: its overrides apply to nothing anyway
                kept[skin_id] = dict(upstreams)
                continue
            patterns = self.of(skin_id, file_bases[skin_id].values())
            for name, url in upstreams.items():
                if is_setting(name) or allows(patterns, url):  # a setting is no URL
                    kept.setdefault(skin_id, {})[name] = url
                else:
                    dropped.append(f"{skin_id}.{name}={url} is not applied: its host is not allowed for {skin_id}")
        return kept, dropped
