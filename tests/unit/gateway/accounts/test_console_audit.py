"""The audit trail: kept in a JSON-lines file or a Redis stream (and found again by a new process),
read newest first with filters and pages, seen by role, exported as CSV and JSON; and never a
secret in it, in an answer or in a log line."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio

from gateway.accounts.audit import CHANGES, AuditEntry, Query, StreamTrail, Trail, order
from gateway.accounts.trail_file import FileTrail
from gateway.config.settings import Settings
from gateway.monitoring.observability import configure_logging
from gateway.runtime.lifecycle import Lifecycle
from gateway.store import keys
from tests.support.cluster import RedisServer
from tests.support.console import SECRETS, Listener, admin_listener, bearer, hashes

pytestmark = pytest.mark.anyio


def entry(action: str = "purge", who: str = "otto", skin: str | None = "aurora", **more: object) -> AuditEntry:
    return AuditEntry(action, who, "console", "10.0.0.1", "ok", skin=skin, **more)  # type: ignore[arg-type]


class Trails:
    """A trail of each kind, and a second one over the same file or stream: the process after a restart."""

    def __init__(self, tmp_path: Path, server: RedisServer) -> None:
        self.path = tmp_path / "var" / "audit.jsonl"
        self.lifecycle = Lifecycle()
        self.clients: list[redis.asyncio.Redis] = []
        self.server = server

    def open(self, kind: str, max_entries: int = 100_000) -> Trail:
        if kind == "file":
            return FileTrail(self.path)
        client = redis.asyncio.Redis(port=self.server.port)
        self.clients.append(client)
        return StreamTrail(client, self.lifecycle.spawn, max_entries)


@pytest.fixture(params=["file", "stream"])
async def trails(
    request: pytest.FixtureRequest, tmp_path: Path, redis_server: RedisServer
) -> AsyncIterator[tuple[str, Trails]]:
    with redis_server.client() as client:
        client.delete(keys.AUDIT)
    made = Trails(tmp_path, redis_server)
    yield request.param, made
    for client in made.clients:
        await client.aclose()


async def test_the_trail_survives_a_restart_and_reads_newest_first(trails: tuple[str, Trails]) -> None:
    kind, made = trails
    before = made.open(kind)
    for n in range(5):
        await before.record(entry(who=f"op{n}"))
    after = made.open(kind)  # a new process on the same file or stream
    await after.record(entry(who="op5"))
    found, more = await after.page(Query())
    assert [e.who for e in found] == [f"op{n}" for n in range(5, -1, -1)] and more is None
    assert len({e.id for e in found}) == 6 and all(e.at and e.at.endswith("Z") for e in found)
    if kind == "file":
        assert os.stat(made.path).st_mode & 0o777 == 0o600


async def test_filters_and_pages(trails: tuple[str, Trails]) -> None:
    kind, made = trails
    trail = made.open(kind)
    for n in range(30):
        await trail.record(
            entry("purge" if n % 3 else "sign-in", who=f"op{n % 2}", skin="aurora" if n < 20 else "pampa")
        )
    pages, cursor = [], None
    while True:
        found, cursor = await trail.page(Query(frozenset({"purge"}), who="op1", skin="aurora", before=cursor, limit=3))
        pages.append(found)
        if cursor is None:
            break
    seen = [e for page in pages for e in page]
    assert [len(page) for page in pages] == [3, 3, 1] and all(e.action == "purge" and e.who == "op1" for e in seen)
    ids = [str(e.id) for e in seen]
    assert ids == sorted(ids, key=order, reverse=True)
    oldest_ms = int(str(seen[-1].id).split("-")[0])
    since, _ = await trail.page(Query(since_ms=oldest_ms + 1, who="op1", actions=frozenset({"purge"}), skin="aurora"))
    assert seen[-1].id not in {e.id for e in since}


async def test_the_stream_is_bounded(tmp_path: Path, redis_server: RedisServer) -> None:
    made = Trails(tmp_path, redis_server)
    with redis_server.client() as client:
        client.delete(keys.AUDIT)
        trail = made.open("stream", max_entries=100)
        for n in range(1000):
            await trail.record(entry(who=f"op{n}"))
        assert client.xlen(keys.AUDIT) <= 300, "XADD MAXLEN ~ trims whole nodes: about the bound, never all"
    found, _ = await trail.page(Query(limit=1))
    assert found[0].who == "op999"
    await made.clients[0].aclose()


async def test_a_line_torn_by_a_crash_is_passed_over(tmp_path: Path) -> None:
    trail = FileTrail(tmp_path / "audit.jsonl")
    await trail.record(entry(who="before"))
    with (tmp_path / "audit.jsonl").open("ab") as file:
        file.write(b'{"action":"purge","who":"to')
    await FileTrail(tmp_path / "audit.jsonl").record(entry(who="after"))
    assert [e.who for e in (await trail.page(Query()))[0]] == ["after", "before"]


async def test_a_file_that_cannot_be_written_does_not_fail_the_caller(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging(Settings(log_format="json"))  # to this test's output
    (tmp_path / "var").write_text("a file where the folder should be")
    await FileTrail(tmp_path / "var" / "audit.jsonl").record(entry())
    out = capfd.readouterr().out
    assert '"event":"audit.purge"' in out and '"event":"audit.unrecorded"' in out, "the log line stays the record"


# --- the API --------------------------------------------------------------------------


@pytest.fixture
async def listener(tmp_path: Path) -> AsyncIterator[Listener]:
    async with admin_listener(tmp_path) as running:
        yield running


async def test_viewers_see_the_changes_without_addresses_and_admins_see_everything(listener: Listener) -> None:
    otto = await listener.signed_in("otto", "10.6.0.1")
    assert (await otto.call("POST", "/admin/skins/aurora/cache/purge")).status_code == 200
    await listener.browser("10.6.0.2").sign_in("nobody", "wrong-password-1")
    vera = await listener.signed_in("vera")
    shown = (await vera.call("GET", "/admin/api/audit")).json()
    assert [e["action"] for e in shown["entries"]] == ["purge"] and shown["next"] is None
    assert shown["entries"][0]["who"] == "otto" and shown["entries"][0]["address"] is None
    assert (await vera.call("GET", "/admin/api/audit?action=sign-in-failed")).json()["entries"] == []
    ada = await listener.signed_in("ada")
    full = (await ada.call("GET", "/admin/api/audit")).json()["entries"]
    assert [e["action"] for e in full] == ["sign-in", "sign-in", "sign-in-failed", "purge", "sign-in"]
    assert full[2]["who"] == "(unknown)" and full[2]["address"] == "10.6.0.2", "what was typed may be a password"
    assert full[3]["address"] == "10.6.0.1" and full[3]["via"] == "console"
    assert {e["action"] for e in full} - CHANGES == {"sign-in", "sign-in-failed"}


async def test_bad_filters_get_field_errors(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    answer = await ada.call("GET", "/admin/api/audit?action=dance&limit=0&since=yesterday&before=x")
    assert answer.status_code == 422 and answer.json()["code"] == "INVALID"
    assert {e["field"] for e in answer.json()["errors"]} == {"action", "limit", "since", "before"}
    assert (await ada.call("GET", "/admin/api/audit/export?format=xlsx")).status_code == 422


async def test_admins_export_every_entry_as_csv_and_json_safe_for_spreadsheets(listener: Listener) -> None:
    for n in range(1203):
        await listener.audit.record(entry(who=f"op{n}", reason='=HYPERLINK("http://evil")' if n == 7 else "ok"))
    ada = await listener.signed_in("ada")
    as_csv = await ada.call("GET", "/admin/api/audit/export?format=csv&action=purge")
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    disposition = as_csv.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="audit-') and disposition.endswith('.csv"')
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    assert len(rows) == 1203 and rows[0]["who"] == "op1202" and rows[-1]["who"] == "op0"
    assert rows[1202 - 7]["reason"] == '\'=HYPERLINK("http://evil")', "a formula is text in a spreadsheet"
    assert json.loads(rows[0]["detail"] or "null") is None
    as_json = await ada.call("GET", "/admin/api/audit/export?format=json&who=OP7")  # a part, any case
    named = {e["who"]: e for e in as_json.json()}
    assert len(named) == 111 and all("op7" in who for who in named) and named["op7"]["reason"].startswith("=")
    otto = await listener.signed_in("otto")
    assert (await otto.call("GET", "/admin/api/audit/export")).json()["needs"] == "admin"


async def test_no_secret_in_any_log_line_answer_or_audit_entry(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    async with admin_listener(tmp_path) as listener:
        answers = []
        for name in ("ada", "otto", "vera"):
            console = listener.browser()
            answers.append(await console.sign_in(name))
            answers.append(await console.sign_in(name, "typo-" + name + "-password"))
            answers.append(await console.call("POST", "/admin/skins/aurora/cache/purge"))
            answers.append(await console.call("GET", "/admin/api/audit"))
            answers.append(await console.call("DELETE", "/admin/api/session"))
        for name in ("ADMIN_TOKEN", "deploy-bot", "grafana"):
            answers.append(await listener.browser().call("GET", "/admin/status", headers=bearer(name)))
        answers.append(await listener.browser().sign_in("otto-operator-pass-1", "a password typed as the name"))
        ada = await listener.signed_in("ada")
        answers.append(await ada.call("GET", "/admin/api/audit/export?format=json"))
        cookies = [ada.cookie or "", *(answer.cookies.get("console", "") for answer in answers)]
    bodies = "".join(answer.text for answer in answers)  # the export among them: every entry
    written = capfd.readouterr().out + listener.audit_file.read_text()
    for secret in [*SECRETS, *hashes(), *filter(None, cookies)]:
        assert secret not in written, "a secret in the log or the audit file"
        assert secret not in bodies, "a secret in an answer"
    assert '"event":"audit.sign-in"' in written and '"event":"audit.token-use"' in written
