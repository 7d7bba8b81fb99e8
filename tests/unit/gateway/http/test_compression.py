"""Compression toward the browser: negotiation, byte-exact round trips, validators per encoding,
and the BREACH rule (`gateway.http.compression`)."""

from __future__ import annotations

import gzip
import json

import brotli
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.http.compression import (
    MIN_BYTES,
    ON_THE_FLY,
    PREFERRED,
    STORED,
    Coding,
    Packed,
    Variants,
    compress,
    matches,
    may_compress,
    negotiate,
)

CHROME = "gzip, deflate, br, zstd"
JSON_BODY = json.dumps([{"id": n, "name": f"Juego {n}", "provider": "pragmaticplay"} for n in range(300)]).encode()


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        (CHROME, "br"),
        ("gzip, deflate, br", "br"),
        ("gzip", "gzip"),
        ("x-gzip", "gzip"),
        ("GZIP", "gzip"),
        ("br;q=1.0, gzip;q=0.8", "br"),
        ("gzip;q=1.0, br;q=0.8", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("br;q=0", "identity"),
        ("gzip;q=0", "identity"),
        ("*", "br"),
        ("*;q=0", "identity"),
        ("br;q=0, *", "gzip"),
        ("*;q=0.5, gzip;q=0.2", "br"),
        ("*;q=0.5, br;q=0.2, gzip;q=0.2, identity", "identity"),
        ("gzip;q=0.5", "gzip"),
        ("gzip;q=0.5, identity", "identity"),
        ("identity", "identity"),
        ("identity;q=0", "identity"),
        ("deflate, zstd", "identity"),
        ("", "identity"),
        (None, "identity"),
        # malformed: never an error, at worst the answer travels uncompressed
        (",,, ;;; ,", "identity"),
        ("br;q=2, gzip", "gzip"),
        ("br;q=abc", "identity"),
        ("br;q=", "identity"),
        ("br;q=-1, gzip;q=0.3", "gzip"),
        ("b r, gzip", "gzip"),
        ("gzip;foo=bar", "gzip"),
        ("\x00\xff, br", "br"),
        ("br" + ", deflate" * 40, "br"),
        ("deflate, " * 40 + "br", "identity"),
    ],
)
def test_the_encoding_is_the_one_the_browser_weighs_highest(header: str | None, chosen: Coding) -> None:
    assert negotiate(header) == chosen


def test_only_what_is_offered_is_chosen() -> None:
    assert negotiate(CHROME, ("gzip",)) == "gzip"
    assert negotiate("br", ("gzip",)) == "identity"


@given(st.text(max_size=200))
def test_any_accept_encoding_gets_an_encoding_the_browser_did_not_refuse(header: str) -> None:
    chosen = negotiate(header)
    assert chosen in (*PREFERRED, "identity")
    if chosen != "identity":
        assert chosen in header.lower() or "*" in header


@pytest.mark.parametrize("coding", PREFERRED)
@pytest.mark.parametrize("levels", [STORED, ON_THE_FLY])
def test_compressed_bytes_come_back_exactly(coding: Coding, levels: object) -> None:
    packed = compress(JSON_BODY, coding, levels)  # type: ignore[arg-type]
    assert len(packed) < len(JSON_BODY) / 3
    restored = brotli.decompress(packed) if coding == "br" else gzip.decompress(packed)
    assert restored == JSON_BODY


def test_each_encoding_has_its_own_strong_etag() -> None:
    variants = Variants.compressed(JSON_BODY, "application/json")
    chosen = {coding: variants.pick(coding) for coding in ("br", "gzip", "identity")}
    tags = {variant.etag for variant in chosen.values()}
    assert len(tags) == 3 and not any(tag.startswith("W/") for tag in tags)
    assert brotli.decompress(chosen["br"].body) == JSON_BODY == gzip.decompress(chosen["gzip"].body)
    assert chosen["identity"].body == JSON_BODY
    again = Variants.compressed(JSON_BODY, "application/json")
    assert [again.pick(c).etag for c in chosen] == [v.etag for v in chosen.values()], "the same bytes, the same tags"
    other = Variants.compressed(JSON_BODY + b" ", "application/json")
    assert not {other.pick(c).etag for c in chosen} & tags


@pytest.mark.parametrize(
    ("body", "media_type"),
    [(b"x" * (MIN_BYTES - 1), "application/json"), (b"PNG" + bytes(4000), "image/png"), (bytes(4000), "font/woff2")],
)
def test_small_answers_and_compressed_formats_travel_as_they_are(body: bytes, media_type: str) -> None:
    variants = Variants.compressed(body, media_type)
    assert variants.codings == ()
    assert variants.pick(CHROME).coding == "identity" and variants.pick(CHROME).body == body


@pytest.mark.parametrize(
    ("header", "hit"),
    [
        ('"abc-br"', True),
        ('W/"abc-br"', True),
        ('"zzz", "abc-br"', True),
        ('"zzz",W/"abc-br" , "yyy"', True),
        ("*", True),
        (" * ", True),
        ('"abc-gzip"', False),
        ('"abc"', False),
        ("abc-br", False),
        ('"abc-br', False),
        ("", False),
        (None, False),
        ("garbage, ;;; \x00", False),
        ('"a,b", "abc-br"', True),
    ],
)
def test_if_none_match_names_the_current_variant_or_nothing(header: str | None, hit: bool) -> None:
    assert matches(header, '"abc-br"') is hit


@given(st.text(max_size=300))
def test_any_if_none_match_is_read_without_error(header: str) -> None:
    assert matches(header, '"abc-br"') in (True, False)


@pytest.mark.parametrize(
    ("secret", "reflects", "headers", "allowed"),
    [
        (False, False, [], True),
        (True, False, [], True),  # a launch token beside nothing the request chose
        (False, True, [], True),  # a search echoed beside no secret
        (True, True, [], False),  # a launch token beside the echoed game id: BREACH
        (False, True, [(b"set-cookie", b"bff=abc; HttpOnly")], False),
        (False, True, [(b"Set-Cookie", b"XSRF-TOKEN=abc")], False),
        (False, False, [(b"set-cookie", b"bff=abc")], True),
    ],
)
def test_a_secret_beside_anything_the_request_chose_is_never_compressed(
    secret: bool, reflects: bool, headers: list[tuple[bytes, bytes]], allowed: bool
) -> None:
    assert may_compress(carries_secret=secret, reflects_request=reflects, headers=headers) is allowed


def test_seldom_changing_answers_are_compressed_once_per_content() -> None:
    packed = Packed(limit=2)
    first = packed.variants("config aurora", JSON_BODY, "application/json")
    assert packed.variants("config aurora", bytes(JSON_BODY), "application/json") is first
    changed = packed.variants("config aurora", JSON_BODY + b" ", "application/json")
    assert changed is not first and changed.pick("br").etag != first.pick("br").etag
    for name in ("a", "b", "c"):  # bounded: past the limit it starts again
        packed.variants(name, b"{}", "application/json")
    assert len(packed._kept) <= 2
