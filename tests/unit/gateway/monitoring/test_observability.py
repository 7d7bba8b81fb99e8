"""Logs never carry secrets, whatever a caller passes to them."""

from __future__ import annotations

import pytest

from gateway.monitoring.observability import REDACTED, redact


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


def test_the_access_line_passes_on_its_own_keys_and_is_redacted_on_any_other() -> None:
    """The access chain checks its fixed keys once; a key added to the line later (a header,
    a token) is still redacted, since the line is then walked in full."""
    from gateway.monitoring.observability import ACCESS_KEYS, redact_access

    line = dict.fromkeys(ACCESS_KEYS, "x")
    assert redact_access(None, "info", dict(line)) == line
    leaked = redact_access(None, "info", {**line, "session_token": "S", "extra": {"password": "p"}})
    assert leaked["session_token"] == REDACTED and leaked["extra"] == {"password": REDACTED}


def _lines(text: str) -> list[dict[str, object]]:
    import json

    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_every_logger_writes_one_format_redacted_with_tracebacks(capfd: object) -> None:
    """Found reading the code: stdlib loggers (uvicorn, Litestar, asyncio) were not routed
    through structlog, so a production log mixed formats and skipped redaction."""
    import logging

    import structlog

    from gateway.config.settings import Settings
    from gateway.monitoring.observability import configure_logging

    configure_logging(Settings(log_format="json", secret_key="x"))
    structlog.contextvars.bind_contextvars(request_id="req-42")
    try:
        logging.getLogger("uvicorn.error").warning("socket %s closed", "7", extra={"password": "hunter2"})
        try:
            raise ValueError("boom")
        except ValueError as exc:
            structlog.get_logger("gateway").error("unhandled error", exc_info=exc)
    finally:
        structlog.contextvars.unbind_contextvars("request_id")
    out, _ = capfd.readouterr()  # type: ignore[attr-defined]
    stdlib, ours = _lines(out)[-2:]
    assert stdlib["event"] == "socket 7 closed" and stdlib["level"] == "warning" and stdlib["logger"] == "uvicorn.error"
    assert stdlib["password"] == REDACTED and "hunter2" not in out
    assert stdlib["request_id"] == ours["request_id"] == "req-42", "the request's id on every line written for it"
    assert "Traceback" in str(ours["exception"]) and "ValueError: boom" in str(ours["exception"])
    assert set(stdlib) >= {"timestamp", "level", "event"} and set(ours) >= {"timestamp", "level", "event"}


@pytest.mark.anyio
async def test_a_line_logged_while_a_request_is_served_carries_its_id(capfd: object) -> None:
    import respx

    from tests.support.gateway import browser_on, gateway_app

    router = respx.Router(base_url="http://127.0.0.1:8001", assert_all_called=False)
    async with browser_on(gateway_app(router, log_format="json")) as visitor, visitor.refusing():
        failed = await visitor.get("/capi/home-banners", headers={"x-request-id": "trace-me-7"})
    assert failed.status_code == 502
    out, _ = capfd.readouterr()  # type: ignore[attr-defined]
    failure = next(line for line in _lines(out) if line["event"] == "upstream.call_failed")
    assert failure["request_id"] == "trace-me-7" and failure["failure"] == "unreachable"
    access = next(line for line in _lines(out) if line["event"] == "request")
    assert access["request_id"] == "trace-me-7" and access["status"] == 502
