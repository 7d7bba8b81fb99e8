"""Logs never carry secrets, whatever a caller passes to them."""

from __future__ import annotations

from gateway.observability import REDACTED, redact


def test_secret_fields_are_redacted_at_any_depth() -> None:
    event = {
        "event": "request",
        "password": "demo123",
        "wsession": "S",
        "sessionId": "S",
        "Cookie": "bff=x",
        "X-XSRF-TOKEN": "t",
        "body": {"cbu": "0110", "bankAccountNumber": "1234", "ssn": "99", "amount": 10},
        "route": "login",
    }
    cleaned = redact(None, "info", dict(event))
    assert cleaned["event"] == "request" and cleaned["route"] == "login"
    for key in ("password", "wsession", "sessionId", "Cookie", "X-XSRF-TOKEN"):
        assert cleaned[key] == REDACTED
    assert cleaned["body"] == {"cbu": REDACTED, "bankAccountNumber": REDACTED, "ssn": REDACTED, "amount": 10}
