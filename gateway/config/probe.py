"""A probe of an upstream base URL before an operator points a skin at it: whether it answers
HTTP, how fast, and for https the certificate it presents (subject, issuer, expiry).

httpx rather than the gateway's own pool (`gateway.upstream.transport`): the pool keeps no TLS
details, and one request per preview has no speed to win. The trust is the same: callers pass the
pools' own context (`config.trust`: the system's CAs and `UPSTREAM_CA_FILE`'s), so a certificate
the gateway would refuse fails here too.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import httpx
import msgspec

from gateway.config import skins
from gateway.config.history import iso

Probe = Callable[[str], Awaitable[tuple[bool, Any]]]
"""Whether an origin answers (and why not): what a configuration's new upstreams are asked before it runs."""
ProbeError = Literal["TIMEOUT", "DNS", "REFUSED", "TLS_UNTRUSTED", "TLS", "NO_ANSWER"]
Unreachable = tuple[str, str, str, str]
"""(skin id, upstream name, base URL, why it did not answer)."""


class Certificate(msgspec.Struct, rename="camel"):
    subject: str
    issuer: str
    not_after: str
    days_left: int


class Probed(msgspec.Struct, rename="camel"):
    url: str
    ok: bool
    """Any HTTP answer: the upstream is up and speaks HTTP."""
    status: int | None = None
    latency_ms: float | None = None
    error: str | None = None
    """Why it did not answer, in the words of the network library (logs, the bearer API)."""
    tls: Certificate | None = None
    code: ProbeError | None = None
    """The same, as a code the console words in the operator's language."""


async def probe(url: str, within_s: float = 3.0, context: ssl.SSLContext | None = None) -> Probed:
    """One `GET` of `url`, its answer's headers awaited for at most `within_s`."""
    verify = context if context is not None else ssl.create_default_context()
    started = time.perf_counter()
    try:
        async with (
            httpx.AsyncClient(verify=verify, timeout=within_s, trust_env=False) as client,
            client.stream("GET", url, headers={"user-agent": "casino-bff-probe"}) as answer,
        ):
            latency = round((time.perf_counter() - started) * 1000, 1)
            tls = certificate(answer.extensions.get("network_stream"))
            return Probed(url, True, answer.status_code, latency, None, tls)
    except httpx.TimeoutException:
        return Probed(url, False, error=f"no answer within {within_s:g} s", code="TIMEOUT")
    except httpx.HTTPError as exc:
        return Probed(url, False, error=failure(exc), code=failure_code(exc))


def certificate(stream: Any) -> Certificate | None:
    """The verified peer certificate of an httpx network stream (None over plain http)."""
    ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
    if ssl_object is None:
        return None
    cert = ssl_object.getpeercert()
    if not cert:
        return None
    expires = ssl.cert_time_to_seconds(cert["notAfter"])
    return Certificate(
        subject=_name(cert.get("subject", ())),
        issuer=_name(cert.get("issuer", ())),
        not_after=iso(expires),
        days_left=int((expires - time.time()) // 86400),
    )


def _name(rdns: Any) -> str:
    """`((('commonName', 'x'),), (('organizationName', 'y'),))` -> `CN=x, O=y`."""
    short = {
        "commonName": "CN",
        "organizationName": "O",
        "organizationalUnitName": "OU",
        "countryName": "C",
        "localityName": "L",
        "stateOrProvinceName": "ST",
    }
    return ", ".join(f"{short.get(key, key)}={value}" for rdn in rdns for key, value in rdn)


def failure_code(exc: BaseException) -> ProbeError:
    """What kind of failure an httpx error is, read from the exceptions it was raised from."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLCertVerificationError):
            return "TLS_UNTRUSTED"
        if isinstance(seen, ssl.SSLError):
            return "TLS"
        if isinstance(seen, socket.gaierror):
            return "DNS"
        if isinstance(seen, ConnectionRefusedError):
            return "REFUSED"
        seen = seen.__cause__ or seen.__context__
    return "NO_ANSWER"


def failure(exc: httpx.HTTPError) -> str:
    """Why an httpx call got no answer, in a line (the exception's text, or its cause's name)."""
    cause = exc.__context__ if not str(exc) and exc.__context__ is not None else exc
    text = str(cause) or type(cause).__name__
    return text[:300]


async def probe_origins(ask: Probe, changes: list[tuple[str, str, str]]) -> list[Unreachable]:
    """The (skin, upstream, base URL) of `changes` whose origin does not answer `ask`, each origin asked once."""
    origins = sorted({skins.origin(url) for _, _, url in changes})
    answers = await asyncio.gather(*(ask(origin) for origin in origins))
    down = {origin: detail for origin, (ok, detail) in zip(origins, answers, strict=True) if not ok}
    return [(s, n, u, str(down[skins.origin(u)])) for s, n, u in changes if skins.origin(u) in down]


def said(unreachable: list[Unreachable]) -> str:
    return "; ".join(f"skins[{s}].upstreams.{n}: {u} does not answer ({why})" for s, n, u, why in unreachable)
