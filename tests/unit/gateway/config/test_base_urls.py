"""Base URLs an operator gives: each non-canonical form normalised to one spelling, or refused with
the field code the console translates, before anything is probed."""

from __future__ import annotations

import pytest

from gateway.config.base_urls import BaseUrlError, base_url
from gateway.console.changes import url_errors


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("HTTP://capi.example", "http://capi.example"),
        ("hTtPs://Capi.EXAMPLE/V2", "https://capi.example/V2"),
        ("http://capi.example:80/", "http://capi.example"),
        ("https://capi.example:443/v2/", "https://capi.example/v2"),
        ("https://capi.example:8443", "https://capi.example:8443"),
        ("http://capi.example:/base", "http://capi.example/base"),
        ("http://[::1]:9000/x", "http://[::1]:9000/x"),
        ("http://xn--bcher-kva.example", "http://xn--bcher-kva.example"),
        ("http://capi.example/a%20b", "http://capi.example/a%20b"),
        # hosts that could pass for another: one spelling, the one the allowed hosts compare
        ("http://capi.example./v2", "http://capi.example/v2"),
        ("http://[::ffff:127.0.0.1]:8001", "http://127.0.0.1:8001"),
        ("http://[::FFFF:7f00:1]", "http://127.0.0.1"),
        ("http://[0:0:0:0:0:0:0:1]:9000", "http://[::1]:9000"),
        ("http://10.0.0.5:8443", "http://10.0.0.5:8443"),
    ],
)
def test_non_canonical_spellings_are_normalised(given: str, canonical: str) -> None:
    assert base_url(given) == canonical
    assert base_url(canonical) == canonical, "canonical stays canonical"


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("http://host/../..", "URL_PATH"),
        ("http://host/a/./b", "URL_PATH"),
        ("http://host/a/../b", "URL_PATH"),
        ("http://host/%2e%2e/b", "URL_PATH"),
        ("http://host/a%2Fb", "URL_PATH"),
        ("http://host//a", "URL_PATH"),
        ("http://user:pass@host", "URL_CREDENTIALS"),
        ("http://user@host", "URL_CREDENTIALS"),
        ("http://", "URL_INVALID"),
        ("http:///path", "URL_INVALID"),
        ("http://:8080", "URL_INVALID"),
        ("http:host", "URL_INVALID"),
        ("http:\\\\host\\path", "URL_INVALID"),
        ("http://host\\path", "URL_INVALID"),
        ("http://ho st", "URL_INVALID"),
        (" http://host", "URL_INVALID"),
        ("http://host/\t", "URL_INVALID"),
        ("http://host:99999", "URL_INVALID"),
        ("http://host:0", "URL_INVALID"),
        ("http://ho_st", "URL_INVALID"),
        ("http://bücher.example", "URL_HOST_FORM"),
        ("http://a..b", "URL_INVALID"),
        ("http://capi.example..", "URL_INVALID"),
        # hosts that could pass for another: refused rather than guessed at
        ("http://capi.example@evil.example", "URL_CREDENTIALS"),
        ("http://2130706433", "URL_HOST_FORM"),
        ("http://0x7f.1", "URL_HOST_FORM"),
        ("http://0x7f000001", "URL_HOST_FORM"),
        ("http://017700000001", "URL_HOST_FORM"),
        ("http://0177.0.0.1", "URL_HOST_FORM"),
        ("http://127.1", "URL_HOST_FORM"),
        ("http://127.000.000.001", "URL_HOST_FORM"),
        ("http://256.0.0.1", "URL_HOST_FORM"),
        ("http://capi.example.0x10", "URL_HOST_FORM"),
        ("http://\u0430pple.example", "URL_HOST_FORM"),  # a Cyrillic 'а'
        ("http://\u212aapi.example", "URL_HOST_FORM"),  # the Kelvin sign, which lower-cases to 'k'
        ("http://%63api.example", "URL_HOST_FORM"),
        ("http://capi%2eexample", "URL_HOST_FORM"),
        ("http://[::1%25eth0]", "URL_HOST_FORM"),
        ("http://[::zz]", "URL_INVALID"),
        ("http://host#top", "URL_HAS_PATH_QUERY"),
        ("http://host/?", "URL_HAS_PATH_QUERY"),
        ("http://host/x?a=1", "URL_HAS_PATH_QUERY"),
        ("ftp://host", "URL_SCHEME"),
        ("javascript:alert(1)", "URL_SCHEME"),
        ("host.example", "URL_SCHEME"),
    ],
)
def test_other_forms_are_refused_field_by_field(given: str, code: str) -> None:
    with pytest.raises(BaseUrlError) as refused:
        base_url(given)
    assert refused.value.code == code
    assert [(e.field, e.code) for e in url_errors(given)] == [("url", code)]
