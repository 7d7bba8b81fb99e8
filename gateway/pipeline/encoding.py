"""Toward the browser, at the end of the proxied path: how an answer that is not a stored copy
travels (content copies are `gateway.http.stored`'s: compressed once when kept).

- `read` and `exclusive` answers (personal: the balance, a profile, a history, a deposit) get
  `Cache-Control: private, no-store`: no cache anywhere keeps them, none serves one session's
  answer to another;
- an answer of 1 kB or more of a textual type is compressed as it is sent, at the cheap level
  (`ON_THE_FLY`: gzip 1, brotli 3; about 60-120 us for 30 kB, bench/compression.py), in the
  encoding the request accepts, with `Vary: Accept-Encoding`; smaller ones travel as they are;
- never an answer carrying a secret together with anything the request can influence (BREACH,
  `compression.may_compress`): the routes whose answers carry one (`Route.secret_answer`), and
  any answer that sets a cookie (the gateway's session and XSRF cookies, added before this runs);
  every proxied call is taken as one the request influences;
- a body the platform sent gzip and nothing in the gateway reads (`upstream.call.passes_through`) goes out as
  it came to a browser that accepts gzip; to one that does not, as the gateway read it (inflated,
  bounded, checked as it arrived).
"""

from __future__ import annotations

from contracts.catalogue import ATTACHED_TYPES, Route
from gateway.http.asgi import Outgoing
from gateway.http.compression import (
    MIN_BYTES,
    ON_THE_FLY,
    Coding,
    compress,
    may_compress,
    negotiate,
    textual,
    varies_on_encoding,
)
from gateway.pipeline.exchange import Exchange

PERSONAL = (b"cache-control", b"private, no-store")
DATA_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", b"default-src 'none'; sandbox"),
)
"""On every proxied answer: whatever the platform sent, a browser that opens it as a page of the
site's origin (a link, a new tab, a sniffing browser) runs nothing and loads nothing."""
_JSON = b"application/json"
_VARY = (b"vary", b"accept-encoding")
_GZIP: tuple[Coding, ...] = ("gzip",)


def secret_answer(route: Route) -> bool:
    return route.secret_answer


def on_the_fly(x: Exchange, response: Outgoing) -> Outgoing:
    """`response` compressed as it is sent when it is worth it and allowed (the module's rules);
    the platform's gzip passed through as it came to a browser that accepts it, else inflated."""
    if response.chunks is not None or response.status in (204, 304):
        return response
    if response.gzipped is not None and _pass_platform_gzip(x, response):
        return response
    if len(response.body) < MIN_BYTES:
        return response
    _, route = x.site()
    kind = response.header("content-type") or "application/json"
    if secret_answer(route) or not textual(kind) or response.header("content-encoding") is not None:
        return response
    if not may_compress(carries_secret=False, reflects_request=True, headers=response.headers):
        return response
    coding = negotiate(x.incoming.headers.get("accept-encoding"))
    _vary(response)
    if coding != "identity":
        response.body = compress(response.body, coding, ON_THE_FLY)
        response.headers.append((b"content-encoding", coding.encode("latin-1")))
    return response


def _pass_platform_gzip(x: Exchange, response: Outgoing) -> bool:
    """The platform's own gzip of the body, sent as it came (True: nothing more to do) to a
    browser that accepts gzip when the BREACH rule allows; else the body (inflated as it arrived)
    goes on as any other (False)."""
    _, route = x.site()
    gzipped, response.gzipped = response.gzipped, None
    accepted = negotiate(x.incoming.headers.get("accept-encoding"), _GZIP) == "gzip"
    if (
        gzipped is not None
        and accepted
        and not secret_answer(route)
        and may_compress(carries_secret=False, reflects_request=True, headers=response.headers)
    ):
        response.body = gzipped
        response.headers.append((b"content-encoding", b"gzip"))
        _vary(response)
        return True
    return False


def _vary(response: Outgoing) -> None:
    if not any(name == b"vary" and varies_on_encoding(value.decode("latin-1")) for name, value in response.headers):
        response.headers.append(_VARY)


def personal(x: Exchange, response: Outgoing) -> Outgoing:
    """A `read` or `exclusive` response, as the browser gets it: never kept by any cache, and
    compressed as it is sent where the rules allow. Content and streamed answers pass as they are."""
    _, route = x.site()
    if route.policy == "content" or response.chunks is not None:
        return response
    response.headers = [(name, value) for name, value in response.headers if name != b"cache-control"]
    response.headers.append(PERSONAL)
    return on_the_fly(x, response)


def as_data(x: Exchange, response: Outgoing) -> Outgoing:
    """Every proxied response as data, never a document of the site: `nosniff` and a sandboxing CSP;
    a JSON route's response typed `application/json` whatever the platform called it (conformance
    already refused HTML, XML and script); an SVG or PDF an attachment, so that navigating to one
    never renders it as the site (an `<img>` still shows it). Under a microsecond: it runs on
    every response, cached copies included."""
    headers = response.headers
    headers += DATA_HEADERS
    route = x.route
    if route is None or response.status in (204, 304):
        return response
    kind = next((value for name, value in headers if name == b"content-type"), None)
    if not route.binary:
        if kind is None or not kind.lower().startswith(_JSON):
            response.set_header("content-type", "application/json")
    elif kind is not None and kind.split(b";", 1)[0].strip().lower().decode("latin-1") in ATTACHED_TYPES:
        response.set_header("content-disposition", "attachment")
    return response
