"""Refused attempts in the trail and the log: a viewer's 403, a CSRF refusal, a call with no or a
wrong token, a 409 conflict, each once per burst; wrong tokens limited per address; every export
recorded; the chain's verification through the API, and a byte changed in the file reported."""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gateway.accounts.audit import AuditEntry, Query
from gateway.config.settings import Settings
from gateway.monitoring.observability import configure_logging
from tests.support.console import ADMIN_TOKEN, Listener, admin_listener, bearer

pytestmark = pytest.mark.anyio


@pytest.fixture
async def listener(tmp_path: Path) -> AsyncIterator[Listener]:
    async with admin_listener(tmp_path) as running:
        yield running


async def trail(listener: Listener, action: str) -> list[AuditEntry]:
    return (await listener.audit.page(Query(frozenset({action}))))[0]


async def test_a_viewers_403s_leave_one_entry_and_a_log_line_each(
    listener: Listener, capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging(Settings(log_format="json"))
    vera = await listener.signed_in("vera", "10.6.0.3")
    for _ in range(3):
        assert (await vera.call("POST", "/admin/skins/aurora/cache/purge")).status_code == 403
    assert (await vera.call("GET", "/admin/api/audit/export")).status_code == 403
    refused = await trail(listener, "refused")
    assert [(e.who, e.target, e.detail["code"]) for e in refused] == [
        ("vera", "GET /admin/api/audit/export", "FORBIDDEN"),
        ("vera", "POST /admin/skins/aurora/cache/purge", "FORBIDDEN"),
    ], "one entry per route and burst"
    assert refused[0].address == "10.6.0.3" and refused[0].via == "console" and refused[0].outcome == "refused"
    assert capfd.readouterr().out.count('"event":"console.refused"') == 4, "every refusal is a log line"


async def test_csrf_refusals_leave_an_entry_naming_the_operator(listener: Listener) -> None:
    otto = await listener.signed_in("otto")
    missing = await otto.http.post("/admin/skins/aurora/cache/purge")
    cross = await otto.call("POST", "/admin/skins/aurora/cache/purge", headers={"origin": "https://evil.example"})
    assert (missing.status_code, missing.json()["code"]) == (403, "CSRF") and cross.json()["code"] == "CSRF"
    refused = await trail(listener, "refused")
    assert len(refused) == 1 and refused[0].who == "otto" and refused[0].detail["code"] == "CSRF"
    assert await trail(listener, "purge") == [], "nothing was purged"


async def test_no_credentials_is_recorded_but_the_console_asking_whether_it_is_signed_in_is_not(
    listener: Listener,
) -> None:
    stranger = listener.browser("10.6.0.4")
    assert (await stranger.call("GET", "/admin/api/session")).status_code == 401
    assert await trail(listener, "refused") == []
    assert (await stranger.call("GET", "/admin/status")).status_code == 401
    (refused,) = await trail(listener, "refused")
    assert (refused.who, refused.via, refused.address) == ("(unknown)", "none", "10.6.0.4")
    assert refused.detail["code"] == "SIGNED_OUT" and refused.target == "GET /admin/status"


async def test_wrong_tokens_are_limited_per_address_and_recorded_without_the_token(listener: Listener) -> None:
    guesser = listener.browser("10.6.0.5")
    guesses = [f"guess-{secrets.token_urlsafe(16)}" for _ in range(30)]
    codes = [
        (await guesser.call("GET", "/admin/status", headers={"authorization": f"Bearer {g}"})).status_code
        for g in guesses
    ]
    assert codes == [401] * 20 + [429] * 10
    right = await guesser.call("GET", "/admin/status", headers=bearer("ADMIN_TOKEN"))
    assert right.status_code == 429 and int(right.headers["retry-after"]) > 0, "no right guess gets through meanwhile"
    assert (
        await listener.browser("10.6.0.6").call("GET", "/admin/status", headers=bearer("grafana"))
    ).status_code == 200
    limited, refused = await trail(listener, "token-limited"), await trail(listener, "refused")
    assert len(limited) == 1 and limited[0].address == "10.6.0.5" and limited[0].via == "token"
    assert len(refused) == 1 and refused[0].detail["code"] == "SIGNED_OUT"
    kept = listener.audit_file.read_text()
    assert not any(g in kept or g[6:14] in kept for g in guesses) and ADMIN_TOKEN not in kept


async def test_a_409_conflict_is_in_the_trail(listener: Listener) -> None:
    admin, client, path = bearer("ADMIN_TOKEN"), listener.browser(), "/admin/skins/aurora/upstreams/capi"
    made = [(await client.call("PUT", path, headers=admin, json={"url": "http://zero.test"})).json()["version"]]
    for url in ("http://one.test", "http://two.test"):
        asked = {"url": url, "baseVersion": made[0]}
        made.append((await client.call("PUT", path, headers=admin, json=asked)).status_code)
    assert made[1:] == [200, 409]
    outcomes = [e.outcome for e in await trail(listener, "change")]
    assert outcomes == ["conflict", "ok", "ok"]


async def test_every_export_is_an_entry_naming_what_was_exported(listener: Listener) -> None:
    ada = await listener.signed_in("ada", "10.6.0.7")
    assert (await ada.call("GET", "/admin/api/audit/export?format=json&who=otto&skin=aur")).status_code == 200
    assert (await ada.call("GET", "/admin/api/audit/export")).status_code == 200
    exports = await trail(listener, "export")
    assert [e.detail for e in exports] == [{"format": "csv"}, {"format": "json", "who": "otto", "skin": "aur"}]
    assert exports[0].who == "ada" and exports[0].address == "10.6.0.7"


async def test_the_api_reports_a_byte_changed_in_the_trail_file(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    await ada.call("POST", "/admin/skins/aurora/cache/purge")
    vera = await listener.signed_in("vera")
    intact = (await vera.call("GET", "/admin/api/audit/verify")).json()
    assert intact["intact"] is True and intact["checked"] == 3 and intact["broken"] is None
    lines = listener.audit_file.read_bytes().splitlines()
    purge = json.loads(lines[1])
    assert purge["action"] == "purge"
    lines[1] = lines[1].replace(b'"who":"ada"', b'"who":"adb"')
    listener.audit_file.write_bytes(b"\n".join(lines) + b"\n")
    altered = (await vera.call("GET", "/admin/api/audit/verify")).json()
    assert altered["intact"] is False and altered["last"] == json.loads(lines[0])["id"]
    assert altered["broken"] == {
        "problem": "altered",
        "at": purge["id"],
        "line": 2,
        "message": "its content does not match its hash (edited)",
    }
    assert (await vera.call("GET", "/admin/api/audit/verify")).json()["broken"] == altered["broken"]
    (found,) = await trail(listener, "trail-altered")
    assert found.who == "vera" and found.detail["at"] == purge["id"], "who found it, once"
