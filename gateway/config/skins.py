"""Skins: which white-label site a request belongs to, and where its upstreams are.

A skins file (TOML) maps host names to skins. It is validated with msgspec when it is
read: a bad file stops the start with a message naming the field. Without a file there
are two built-in skins (`aurora` and `pampa`) on the local sandbox.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import msgspec

from contracts.catalogue import UPSTREAMS, Upstream
from contracts.locales import DEFAULT_LOCALE, LOCALES, Locale
from gateway.config.allowed_hosts import AllowedHosts, host_patterns
from gateway.config.health_checks import HealthChecks, health_errors
from gateway.config.history import OFF, SETTING, SETTINGS, merged

PokerSystem = Literal["android", "windows", "mac"]
POKER_SYSTEMS: tuple[PokerSystem, ...] = ("android", "windows", "mac")
HttpUrl = Annotated[str, msgspec.Meta(pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$")]
HttpsOrigin = Annotated[str, msgspec.Meta(pattern=r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$")]
"""`https://host[:port]`, nothing after; an IDN host in its punycode (`xn--`) form."""
Colour = Annotated[str, msgspec.Meta(pattern=r"^#[0-9a-fA-F]{3,8}$")]
HostName = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9.-]+$", min_length=1, max_length=253)]


class SkinsFileError(Exception):
    """The skins file cannot be used; the message names the file and the field."""


class Upstreams(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    api: HttpUrl
    capi: HttpUrl
    sbapi: HttpUrl
    rest: HttpUrl

    def base(self, upstream: Upstream) -> str:
        url: str = getattr(self, upstream)
        return url.rstrip("/")


class Branding(msgspec.Struct, forbid_unknown_fields=True, frozen=True, rename="camel"):
    logo: str = "/bff/logo.svg"
    primary: Colour = "#f5b301"
    accent: Colour = "#e23d5b"
    background: Colour = "#0d0f1a"
    surface: Colour = "#171a2b"
    text: Colour = "#f3f4f8"
    operator_line: str | dict[Locale, str] = ""
    """The footer's operator line: one text for every language, or one per language
    (`{es = "...", pt = "...", en = "..."}`, the skin's default language required)."""

    def public(self, default_locale: Locale) -> dict[str, object]:
        """What the SPA reads: `operatorLine` is one text (the default language's, all that SPAs
        before per-language lines know), `operatorLines` the text per language, when given."""
        public: dict[str, object] = msgspec.to_builtins(self)
        line = self.operator_line
        public["operatorLine"] = line if isinstance(line, str) else line[default_locale]
        public["operatorLines"] = {} if isinstance(line, str) else dict(line)
        return public


RealityMinutes = Annotated[float, msgspec.Meta(ge=0.25, le=1440)]
"""A reality check's period: from 15 s (a test skin's, a few seconds over the clock's precision)
to a day (a longer period is a session no one runs)."""


class Features(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The operator's switches for a skin's screens; an unset switch is on. Off hides every link
    to the flow's screens and sends a visit to any of them home."""

    deposits: bool = True
    """/deposit and its result screens (deposit-success, -failed, -pending, depositresponse)."""
    withdrawals: bool = True
    """/withdraw."""
    reality_check_minutes: RealityMinutes | None = None
    """Every this many minutes of a session the player is shown a reality check (time in the
    session, its deposits and withdrawals, the balance's change since sign-in); None: never.
    Fractions are allowed down to a quarter of a minute (`gateway.state.reality`)."""


class Skin(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9-]{1,32}$")]
    site_id: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
    hosts: Annotated[list[HostName], msgspec.Meta(min_length=1)]
    currency: Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{3}$")]
    upstreams: Upstreams
    currency_symbol: str = ""
    default_locale: Locale = DEFAULT_LOCALE
    locales: list[Locale] = msgspec.field(default_factory=lambda: list(LOCALES))
    sports_feed: HttpUrl | None = None
    """Where the combined sports events come from, when not from the sbapi upstream."""
    frame_hosts: list[HttpUrl] = []
    """Game-provider origins allowed in frames (CSP frame-src)."""
    sportsbook_url: HttpUrl | None = None
    """The BTi sportsbook page the sports screen frames with the player's launch token."""
    payment_hosts: list[HttpUrl] = []
    """Origins the deposit redirect (/bff/pay) may send a player to; nothing else."""
    poker_downloads: dict[PokerSystem, HttpUrl] = {}
    """The operator's poker client installers, offered to logged-in players on /poker."""
    link_hosts: list[HttpsOrigin] = []
    """Origins a link from the platform (CMS header links, banners, promotions) may lead to, besides
    the site itself (the sportsbook, a provider's page); the SPA drops a link to anywhere else."""
    branding: Branding = Branding()
    features: Features = Features()
    health: HealthChecks = HealthChecks()
    """How each upstream's health is checked (the overview, `bff_upstream_up`)."""
    allowed_hosts: list[str] = []
    """Hosts (or `*.domain`, either with `:port`) operators may point this skin's upstreams at,
    beside its own (`gateway.config.allowed_hosts`); never set from the console."""
    approval: bool = False
    """A change, rollback or canary start on this skin waits for a second operator's approval
    (`gateway.maintenance.approvals`)."""

    def link_origins(self) -> list[str]:
        """`link_hosts` as origins compare: lower case, no trailing slash (the SPA's and the gateway's rule)."""
        return [host.rstrip("/").lower() for host in self.link_hosts]

    def allows_payment_to(self, url: str) -> bool:
        """Whether `url` is an http(s) address on one of the skin's payment origins."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or "@" in parts.netloc:
            return False
        origin = f"{parts.scheme}://{parts.netloc}".lower()
        return any(origin == allowed.rstrip("/").lower() for allowed in self.payment_hosts)

    def public(self) -> dict[str, object]:
        """What the SPA may know: never the upstreams."""
        return {
            "id": self.id,
            "name": self.name,
            "currency": self.currency,
            "currencySymbol": self.currency_symbol or self.currency,
            "defaultLocale": self.default_locale,
            "locales": list(self.locales),
            "branding": self.branding.public(self.default_locale),
            "features": msgspec.to_builtins(self.features),
            "sportsbookUrl": self.sportsbook_url,
            "pokerDownloads": dict(self.poker_downloads),
            "linkHosts": self.link_origins(),
        }


class SkinsFile(msgspec.Struct, forbid_unknown_fields=True):
    skins: Annotated[list[Skin], msgspec.Meta(min_length=1)]
    allowed_hosts: list[str] = []
    """Hosts every skin's upstreams may be pointed at (`gateway.config.allowed_hosts`)."""


class Skins:
    """Host name -> skin, built once per configuration."""

    def __init__(self, skins: list[Skin], allowed_hosts: list[str] | None = None) -> None:
        self.all: tuple[Skin, ...] = tuple(skins)
        self._by_host: dict[str, Skin] = {}
        self.unapplied: tuple[str, ...] = ()
        """The operators' overrides `compose` left out: their hosts are not allowed."""
        try:
            every = host_patterns(allowed_hosts or [], "allowed_hosts")
            each = {s.id: host_patterns(s.allowed_hosts, f"skins[{s.id}].allowed_hosts") for s in skins}
        except ValueError as exc:
            raise SkinsFileError(str(exc)) from None
        self._allowed = AllowedHosts(every, each)
        for skin in skins:
            if skin.default_locale not in skin.locales:
                raise SkinsFileError(f"skins[{skin.id}].default_locale: {skin.default_locale} is not in locales")
            line = skin.branding.operator_line
            if isinstance(line, dict) and skin.default_locale not in line:
                raise SkinsFileError(f"skins[{skin.id}].branding.operatorLine: no text in {skin.default_locale}")
            if errors := health_errors(skin.id, skin.health):
                raise SkinsFileError("; ".join(errors))
            for host in skin.hosts:
                if host in self._by_host:
                    raise SkinsFileError(f"skins[{skin.id}].hosts: {host} already belongs to {self._by_host[host].id}")
                self._by_host[host] = skin
        ids = [s.id for s in skins]
        if len(set(ids)) != len(ids):
            raise SkinsFileError("skins: ids must be unique")

    def for_host(self, host: str | None) -> Skin | None:
        """The skin of a Host header value (port and case ignored)."""
        if not host:
            return None
        return self._by_host.get(_hostname(host))

    def allowed(self, env: AllowedHosts) -> AllowedHosts:
        """The hosts allowed beside each skin's own: the environment's `env` and this file's."""
        return env.with_file(self._allowed.every, self._allowed.skins)

    def upstream_origins(self) -> set[str]:
        return {origin(skin.upstreams.base(u)) for skin in self.all for u in UPSTREAMS}

    def bases(self) -> dict[str, dict[str, str]]:
        """Every skin's upstream base URLs: skin id -> upstream name -> URL."""
        return {skin.id: {name: skin.upstreams.base(name) for name in UPSTREAMS} for skin in self.all}

    def state(self) -> dict[str, dict[str, str]]:
        """`bases` with every skin's settings (`history.SETTING`): what a version's entry keeps and diffs."""
        settings = {s.id: {SETTING + n: setting_text(getattr(s.features, n)) for n in SETTINGS} for s in self.all}
        return {skin: {**named, **settings[skin]} for skin, named in self.bases().items()}


def setting_text(value: float | None) -> str:
    """A setting's value as overrides and snapshots keep it: `off`, or the number (`60`, `0.5`)."""
    return OFF if not value else f"{value:g}"


def changed_upstreams(old: Skins, new: Skins) -> list[tuple[str, str, str]]:
    """(skin id, upstream name, new base URL) for every base URL that is new or different."""
    before = {skin.id: skin for skin in old.all}
    changes: list[tuple[str, str, str]] = []
    for skin in new.all:
        previous = before.get(skin.id)
        for name in UPSTREAMS:
            url = skin.upstreams.base(name)
            if previous is None or previous.upstreams.base(name) != url:
                changes.append((skin.id, name, url))
        if skin.sports_feed and (previous is None or previous.sports_feed != skin.sports_feed):
            changes.append((skin.id, "sports_feed", skin.sports_feed.rstrip("/")))
    return changes


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def origin(url: str) -> str:
    """`scheme://host[:port]` of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


SANDBOX = "{sandbox}"
"""Stands in a skins file for the sandbox's URL (`SANDBOX_URL`, or the one `--with-sandbox` serves)."""
LOCAL_SANDBOX = "http://127.0.0.1:8001"


def load(path: Path, sandbox_url: str = LOCAL_SANDBOX) -> Skins:
    return parse(read(path, sandbox_url), str(path))


def read(path: Path, sandbox_url: str = LOCAL_SANDBOX) -> dict[str, Any]:
    """A skins file's TOML, not yet validated, with `{sandbox}` replaced by `sandbox_url`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SkinsFileError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(raw.decode().replace(SANDBOX, sandbox_url))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SkinsFileError(f"{path}: not valid TOML ({exc})") from None


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when the file does (inode: a ConfigMap's symlink swap), or None if it is gone."""
    with contextlib.suppress(OSError):
        st = path.stat()
        return st.st_ino, st.st_mtime_ns, st.st_size
    return None


def compose(
    data: Mapping[str, Any], overrides: Mapping[str, Mapping[str, str]], source: str, env: AllowedHosts | None = None
) -> Skins:
    """The skins of `data` with the operators' overrides (`gateway.config.history.Overrides`)
    applied, validated as a whole; with `env`, those to a host not allowed left out (`unapplied`)."""
    unapplied: list[str] = []
    if env is not None:
        file = parse(data, source)
        overrides, unapplied = file.allowed(env).kept(file.bases(), overrides)
    composed = parse(merged(data, overrides), source)
    composed.unapplied = tuple(unapplied)
    return composed


def parse(data: Mapping[str, object], source: str = "skins") -> Skins:
    try:
        skins_file = msgspec.convert(data, SkinsFile)
    except msgspec.ValidationError as exc:
        # msgspec names the field: "Expected `str`, got `int` - at `$.skins[0].currency`"
        raise SkinsFileError(f"{source}: {exc}") from None
    try:
        return Skins(skins_file.skins, skins_file.allowed_hosts)
    except SkinsFileError as exc:
        raise SkinsFileError(f"{source}: {exc}") from None


def builtin(sandbox_url: str) -> Skins:
    """The local sandbox's two sites: `aurora` on any local host name, `pampa` on pampa.localhost.

    Browsers resolve `*.localhost` to the loopback address, so http://pampa.localhost:8000
    shows the second skin (its own site id, currency and colours) from the same process.
    """
    aurora_hosts = ["127.0.0.1", "localhost", "aurora.localhost", "testserver.local"]
    pampa_colours = {
        "primary": "#2dd4a7",
        "accent": "#3b82f6",
        "background": "#07161a",
        "surface": "#0f252b",
        "text": "#eef7f5",
    }
    return Skins(
        [
            _demo_skin(sandbox_url, "aurora", "Aurora Casino", aurora_hosts, ("INR", "Bs."), {}),
            _demo_skin(sandbox_url, "pampa", "Pampa Bet", ["pampa.localhost"], ("ARS", "$"), pampa_colours),
        ]
    )


def _demo_skin(
    sandbox_url: str, skin_id: str, name: str, hosts: list[str], money: tuple[str, str], colours: dict[str, str]
) -> Skin:
    """A demo site on the sandbox: every upstream, frame, payment page and download there."""
    downloads: dict[PokerSystem, str] = {
        system: f"{sandbox_url}/_sandbox/game/evenbetpoker/download-{system}" for system in POKER_SYSTEMS
    }
    return Skin(
        id=skin_id,
        site_id=skin_id,
        name=name,
        hosts=hosts,
        currency=money[0],
        currency_symbol=money[1],
        upstreams=Upstreams(api=sandbox_url, capi=sandbox_url, sbapi=sandbox_url, rest=sandbox_url),
        frame_hosts=[sandbox_url],
        sportsbook_url=f"{sandbox_url}/_sandbox/game/bti/sportsbook",
        payment_hosts=[sandbox_url],
        poker_downloads=downloads,
        branding=Branding(**colours, operator_line=_demo_line(name)),
        features=Features(),
    )


def _demo_line(name: str) -> dict[Locale, str]:
    return {
        "es": f"{name} es una demo del sandbox. Juega con responsabilidad. +18",
        "pt": f"{name} é uma demonstração do sandbox. Jogue com responsabilidade. +18",
        "en": f"{name} is a sandbox demo. Play responsibly. 18+",
    }
