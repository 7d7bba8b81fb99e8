"""A canary's start in one process, through the admin API: a skin whose scheduled change is due
starts none (409, audited), and the canaries' routes need the operator role to change anything."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gateway.console import canaries
from gateway.console.canaries.effects import GatewayEffects
from gateway.edge.entry import FrontDoor
from tests.support.gateway import gateway_app, operator_on

pytestmark = pytest.mark.anyio

TOKEN = "canary-start-admin-token"


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[FrontDoor]:
    kept = {"audit_file": tmp_path / "audit.jsonl", "config_history": tmp_path / "history.jsonl"}
    yield gateway_app(admin_token=TOKEN, probe_upstreams=False, **kept)


def body(app: FrontDoor) -> dict[str, object]:
    version = app.gateway.config.version
    return {
        "skin": "aurora",
        "upstream": "api",
        "url": "http://127.0.0.1:9",
        "baseVersion": version,
        "reason": "why not",
    }


async def test_a_skin_whose_scheduled_change_is_due_starts_no_canary(app: FrontDoor) -> None:
    assert app.gateway.canaries is not None
    due: list[tuple[str, float]] = []

    async def due_for(skin: str, before: float) -> object | None:
        due.append((skin, before - time.time()))
        return {"id": "sched-1"} if skin == "aurora" else None

    app.gateway.canaries.due_for = due_for
    async with operator_on(app, TOKEN) as ops:
        refused = await ops.post("/admin/api/canaries", json=body(app))
        assert refused.status_code == 409 and refused.json()["code"] == "SCHEDULED_CHANGE_DUE", refused.text
        assert (await ops.get("/admin/api/canaries")).json()["canaries"] == []
        entry = (await ops.get("/admin/api/audit", params={"action": "canary-start"})).json()["entries"][0]
        assert (entry["outcome"], entry["detail"]) == ("conflict", {"code": "SCHEDULED_CHANGE_DUE"})
        app.gateway.canaries.due_for = None
        started = await ops.post("/admin/api/canaries", json=body(app))
        assert started.status_code == 201, started.text
    [(skin, within_s)] = due
    assert skin == "aurora" and 1190 < within_s <= 1200, "the default steps' 4 x 300 s"


async def test_a_started_canary_is_on_the_board_the_routing_reads_at_once(app: FrontDoor) -> None:
    assert app.gateway.canaries is not None
    async with operator_on(app, TOKEN) as ops:
        started = (await ops.post("/admin/api/canaries", json=body(app))).json()["canary"]
    seen = app.gateway.canaries.board.current("aurora")
    assert seen is not None and (seen.id, seen.share, seen.after) == (started["id"], 0.01, "http://127.0.0.1:9")


def test_every_canary_write_needs_the_operator_role_and_reads_the_viewer_role() -> None:
    handlers = canaries.route_handlers
    writes = [h for h in handlers if h.http_methods - {"GET", "HEAD"}]
    assert len(writes) == 5 and all(h.opt.get("role") == "operator" for h in writes)
    assert all(h.opt.get("role") == "viewer" for h in handlers if h not in writes)


async def test_an_unknown_canary_is_404_and_a_body_that_is_no_json_is_422(app: FrontDoor) -> None:
    async with operator_on(app, TOKEN) as ops:
        missing = await ops.post("/admin/api/canaries/aurora-none/pause", json={"reason": "nothing"})
        assert missing.status_code == 404 and missing.json()["code"] == "CANARY_NOT_FOUND"
        broken = await ops.post(
            "/admin/api/canaries", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert broken.status_code == 422 and broken.json()["errors"][0]["field"] == "body"
        typed = await ops.post("/admin/api/canaries", json={**body(app), "steps": "fast"})
        assert typed.status_code == 422 and typed.json()["errors"][0]["field"] == "steps"


async def test_a_skin_with_a_live_canary_takes_no_other_change_until_it_ends(app: FrontDoor) -> None:
    assert app.gateway.canaries is not None
    app.gateway.canaries.controller.effects = GatewayEffects(app.gateway)  # what the lifespan gives it
    async with operator_on(app, TOKEN) as ops:
        started = (await ops.post("/admin/api/canaries", json=body(app))).json()["canary"]
        other = {**body(app), "upstream": "capi", "url": "http://127.0.0.1:8"}
        refused = await ops.post("/admin/api/changes", json=other)
        assert refused.status_code == 409 and refused.json()["code"] == "CANARY_RUNNING", refused.text
        assert started["id"] in refused.json()["message"]
        entry = (await ops.get("/admin/api/audit", params={"action": "change"})).json()["entries"][0]
        assert (entry["outcome"], entry["detail"]) == ("conflict", {"code": "CANARY_RUNNING"})
        assert app.gateway.config.current.skins.bases()["aurora"]["capi"] != "http://127.0.0.1:8"
        pampa = await ops.post("/admin/api/changes", json={**other, "skin": "pampa"})
        assert pampa.status_code == 200, "another skin's changes go on"
        aborted = await ops.post(f"/admin/api/canaries/{started['id']}/abort", json={"reason": "make way"})
        assert aborted.status_code == 200, aborted.text
        again = await ops.post("/admin/api/changes", json={**other, "baseVersion": app.gateway.config.version})
        assert again.status_code == 200, again.text
