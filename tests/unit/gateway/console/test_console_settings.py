"""A skin's reality check changed from the console, in process: previewed, made a version naming
the skin, audited with before and after, refused field by field when out of bounds, a conflict
when the skin moved since, within the operator's skin limits, undone by a rollback, and refused
on a skin whose changes wait for approval."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from gateway.accounts import roster as edits
from gateway.accounts.audit import Query
from gateway.config.history import Change
from tests.support.cluster import extra_skin, skins_toml
from tests.support.console import Console, Listener, admin_listener

pytestmark = pytest.mark.anyio
KEY = "features.reality_check_minutes"


@pytest.fixture
async def listener(tmp_path: Path) -> AsyncIterator[Listener]:
    async with admin_listener(tmp_path) as running:  # ada (admin), otto (operator), vera (viewer)
        yield running


def minutes(listener: Listener, skin: str = "aurora") -> float | None:
    return next(s for s in listener.app.gateway.config.skins.all if s.id == skin).features.reality_check_minutes


async def asked(console: Console, value: Any, base: str | None = None, **more: Any) -> Any:
    base = base or (await console.call("GET", "/admin/api/overview")).json()["config"]["version"]
    body = {"skin": "aurora", "setting": "reality_check_minutes", "value": value, "baseVersion": base, **more}
    return await console.call("POST", "/admin/api/settings", json={"reason": "responsible gaming", **body})


async def changes_audited(listener: Listener) -> list[Any]:
    entries = (await listener.audit.page(Query(actions=frozenset({"change"}))))[0]
    return [msgspec.to_builtins(e) for e in entries]


async def test_an_operator_previews_and_sets_a_skins_reality_check(listener: Listener) -> None:
    otto = await listener.signed_in("otto")
    overview = (await otto.call("GET", "/admin/api/overview")).json()
    assert [s["realityCheckMinutes"] for s in overview["skins"]] == [None, None], "off by default"
    base = overview["config"]["version"]
    body = {"skin": "aurora", "setting": "reality_check_minutes", "value": 60, "baseVersion": base}
    preview = await otto.call("POST", "/admin/api/settings/preview", json=body)
    assert preview.status_code == 200, preview.text
    assert preview.json()["changes"] == [{"skin": "aurora", "upstream": KEY, "before": "off", "after": "60"}]
    assert preview.json()["probes"] == [] and minutes(listener) is None, "a preview changes nothing"

    made = await asked(otto, 60, base)
    assert made.status_code == 200, made.text
    assert made.json()["previous"] == base and made.json()["changes"] == preview.json()["changes"]
    assert minutes(listener) == 60 and minutes(listener, "pampa") is None
    seen = (await otto.call("GET", "/admin/api/overview")).json()
    assert seen["config"]["version"] == made.json()["version"]
    assert [s["realityCheckMinutes"] for s in seen["skins"]] == [60, None]
    newest = await listener.app.gateway.config.versions.newest()
    assert newest is not None and (newest.who, newest.reason) == ("otto", "responsible gaming")
    assert newest.changes == [Change("aurora", KEY, "off", "60")] and newest.skins.keys() == {"aurora", "pampa"}
    [entry] = await changes_audited(listener)
    assert (entry["who"], entry["outcome"], entry["skin"], entry["target"]) == ("otto", "ok", "aurora", KEY)
    assert (entry["before"], entry["after"]) == ("off", "60")

    quarter = await asked(otto, 0.25)
    assert quarter.status_code == 200 and minutes(listener) == 0.25
    off = await asked(otto, 0)
    assert off.status_code == 200 and minutes(listener) is None
    assert listener.app.gateway.config.current.overrides == {}, "back to the file's value: no override left"


async def test_out_of_bounds_or_not_a_number_is_refused_field_by_field(listener: Listener) -> None:
    otto = await listener.signed_in("otto")
    for value, code in ((0.1, "OUT_OF_RANGE"), (1441, "OUT_OF_RANGE"), ("sixty", "INVALID"), (-5, "OUT_OF_RANGE")):
        refused = await asked(otto, value)
        assert refused.status_code == 422, (value, refused.text)
        assert [(e["field"], e["code"]) for e in refused.json()["errors"]] == [("value", code)], value
    unchanged = await asked(otto, None)
    assert [(e["field"], e["code"]) for e in unchanged.json()["errors"]] == [("value", "UNCHANGED")]
    no_reason = await asked(otto, 30, reason="")
    assert [(e["field"], e["code"]) for e in no_reason.json()["errors"]] == [("reason", "REASON_TOO_SHORT")]
    odd = await asked(otto, 30, setting="deposit_limit")
    assert [(e["field"], e["code"]) for e in odd.json()["errors"]] == [("setting", "UNKNOWN_SETTING")]
    assert minutes(listener) is None and listener.app.gateway.config.current.overrides == {}
    assert {e["outcome"] for e in await changes_audited(listener)} == {"refused"}


async def test_a_change_from_a_version_the_skin_moved_on_from_is_a_conflict(listener: Listener) -> None:
    otto, ada = await listener.signed_in("otto"), await listener.signed_in("ada")
    base = (await asked(otto, 60)).json()["version"]  # a version in the history
    assert (await asked(ada, 45, base)).status_code == 200
    late = await asked(otto, 90, base)
    assert late.status_code == 409, late.text
    assert late.json()["skins"] == ["aurora"]
    [changed] = late.json()["changes"]
    assert (changed["upstream"], changed["before"], changed["after"], changed["who"]) == (KEY, "60", "45", "ada")
    assert minutes(listener) == 45, "the conflict changed nothing"
    assert [e["outcome"] for e in await changes_audited(listener)] == ["conflict", "ok", "ok"]


async def test_a_rollback_restores_the_earlier_reality_check(listener: Listener) -> None:
    otto = await listener.signed_in("otto")
    first = (await asked(otto, 60)).json()
    second = (await asked(otto, 30)).json()
    assert minutes(listener) == 30
    back = {"to": first["version"], "baseVersion": second["version"], "reason": "30 was too often"}
    preview = await otto.call("POST", "/admin/api/rollback/preview", json=back)
    assert preview.status_code == 200, preview.text
    assert preview.json()["changes"] == [{"skin": "aurora", "upstream": KEY, "before": "30", "after": "60"}]
    rolled = await otto.call("POST", "/admin/api/rollback", json=back)
    assert rolled.status_code == 200, rolled.text
    assert minutes(listener) == 60
    history = (await otto.call("GET", "/admin/api/history")).json()["versions"]
    assert history[0]["action"] == "rollback" and history[0]["changes"][0]["after"] == "60"


async def test_an_operator_limited_to_pampa_cannot_change_auroras(listener: Listener) -> None:
    token = edits.edit(
        listener.operators_file, lambda f: edits.issue_token(f, "pampa-bot", "operator", False, ("pampa",))
    )
    bot = listener.browser()
    headers = {"authorization": f"Bearer {token}"}
    base = (await bot.call("GET", "/admin/api/overview", headers=headers)).json()["config"]["version"]
    body = {"skin": "aurora", "setting": "reality_check_minutes", "value": 60, "baseVersion": base, "reason": "more"}
    for path in ("/admin/api/settings/preview", "/admin/api/settings"):
        refused = await bot.call("POST", path, json=body, headers=headers)
        assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN", (path, refused.text)
    assert minutes(listener) is None
    pampa = await bot.call("POST", "/admin/api/settings", json={**body, "skin": "pampa"}, headers=headers)
    assert pampa.status_code == 200 and minutes(listener, "pampa") == 60


async def test_a_viewer_changes_no_setting(listener: Listener) -> None:
    vera = await listener.signed_in("vera")
    refused = await asked(vera, 60)
    assert refused.status_code == 403 and minutes(listener) is None


async def test_a_skin_whose_changes_wait_for_approval_refuses_a_setting_change(tmp_path: Path) -> None:
    skins_file = tmp_path / "skins.toml"
    skins_file.write_text(skins_toml("http://platform.test") + extra_skin("vault", "Vault", "approval = true"))
    async with admin_listener(tmp_path, skins_file=skins_file) as listener:
        otto = await listener.signed_in("otto")
        base = (await otto.call("GET", "/admin/api/overview")).json()["config"]["version"]
        body = {"skin": "vault", "setting": "reality_check_minutes", "value": 60, "baseVersion": base}
        refused = await otto.call("POST", "/admin/api/settings", json={"reason": "responsible gaming", **body})
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "APPROVAL_REQUIRED"
        assert minutes(listener, "vault") is None and listener.app.gateway.config.version == base, "nothing changed"
        [entry] = await changes_audited(listener)
        assert (entry["who"], entry["outcome"], entry["skin"], entry["target"]) == ("otto", "refused", "vault", KEY)
        assert entry["detail"] == {"code": "APPROVAL_REQUIRED"} and entry["reason"] == "responsible gaming"

        allowed = await otto.call("POST", "/admin/api/settings", json={**body, "skin": "aurora", "reason": "pilot"})
        assert allowed.status_code == 200, "a skin without approval takes it at once"
