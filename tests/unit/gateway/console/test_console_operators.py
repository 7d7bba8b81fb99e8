"""Operators managed from the console by admins, in process: adding one with a one-time link,
the link used once, roles, skin limits on every route that names a skin, disabling, ending
sessions, the last admin kept, and bad input answered field by field."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from msgspec.structs import replace

from gateway.accounts import roster as edits
from gateway.accounts.audit import Query
from gateway.accounts.operators import RosterFile, read
from tests.support.console import ADMIN_TOKEN, SECRETS, Console, Listener, admin_listener

pytestmark = pytest.mark.anyio
PIA_PASSWORD = "a harbour at dawn 7"


async def _entries(listener: Listener, action: str) -> list[dict[str, object]]:
    entries = (await listener.audit.page(Query(actions=frozenset({action}))))[0]
    return [
        json.loads(json.dumps(e, default=lambda s: {f: getattr(s, f) for f in s.__struct_fields__})) for e in entries
    ]


async def _added(listener: Listener, ada: Console, name: str = "pia", skins: list[str] | None = None) -> str:
    body = {"name": name, "role": "operator", "skins": ["pampa"] if skins is None else skins}
    answer = await ada.call("POST", "/admin/api/operators", json=body)
    assert answer.status_code == 201, answer.text
    path = answer.json()["link"]["path"]
    assert path.startswith("/admin/welcome#")
    return str(path.partition("#")[2])


async def _pia(listener: Listener) -> Console:
    ada = await listener.signed_in("ada")
    token = await _added(listener, ada)
    welcome = await listener.browser().call(
        "POST", "/admin/api/welcome", json={"token": token, "password": PIA_PASSWORD}
    )
    assert welcome.status_code == 200, welcome.text
    pia = listener.browser("10.1.0.7")
    assert (await pia.sign_in("pia", PIA_PASSWORD)).status_code == 200
    return pia


@pytest.fixture
async def listener(tmp_path: Path) -> AsyncIterator[Listener]:
    async with admin_listener(tmp_path) as running:  # ada (admin), otto (operator), vera (viewer)
        yield running


async def test_an_admin_adds_an_operator_whose_link_works_once(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    token = await _added(listener, ada)
    assert (
        token not in listener.operators_file.read_text()
        and read(listener.operators_file).accounts["pia"].password is None
    )
    newcomer = listener.browser("10.9.0.1")
    weak = await newcomer.call("POST", "/admin/api/welcome", json={"token": token, "password": "short"})
    assert weak.status_code == 422 and weak.json()["errors"][0]["field"] == "password", (
        "a weak password loses the link not"
    )
    used = await newcomer.call("POST", "/admin/api/welcome", json={"token": token, "password": PIA_PASSWORD})
    assert used.status_code == 200 and used.json() == {"name": "pia"}
    again = await newcomer.call("POST", "/admin/api/welcome", json={"token": token, "password": "another password 8"})
    assert again.status_code == 422 and again.json()["errors"][0]["code"] == "LINK_INVALID"
    assert (await newcomer.sign_in("pia", PIA_PASSWORD)).status_code == 200
    session = (await newcomer.call("GET", "/admin/api/session")).json()
    assert (session["role"], session["skins"]) == ("operator", ["pampa"])
    used_entries = await _entries(listener, "operator-link-used")
    newest_first = [(e["outcome"], e["who"], e["address"]) for e in used_entries]
    assert newest_first == [("refused", "(unknown)", "10.9.0.1"), ("ok", "pia", "10.9.0.1")], "a used link names nobody"
    added = await _entries(listener, "operator-add")
    assert (
        added[0]["who"] == "ada"
        and added[0]["via"] == "console"
        and added[0]["after"] == {"role": "operator", "skins": ["pampa"]}
    )
    trail = listener.audit_file.read_text()
    assert token not in trail and PIA_PASSWORD not in trail and "argon2" not in trail


async def test_a_late_link_is_refused_and_recorded(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    token = await _added(listener, ada)

    def late(file: RosterFile) -> None:
        file.operators = [replace(a, link_expires=1.0) if a.name == "pia" else a for a in file.operators]

    edits.edit(listener.operators_file, late)
    late = await listener.browser().call("POST", "/admin/api/welcome", json={"token": token, "password": PIA_PASSWORD})
    assert late.status_code == 422 and late.json()["errors"][0]["code"] == "LINK_EXPIRED"
    [entry] = await _entries(listener, "operator-link-used")
    assert (entry["outcome"], entry["target"], entry["detail"]) == ("refused", "pia", {"code": "LINK_EXPIRED"})


async def test_an_operator_limited_to_pampa_gets_403_on_auroras_routes(listener: Listener) -> None:
    pia = await _pia(listener)
    reason = {"reason": "trying aurora"}
    for method, path, body in [
        ("POST", "/admin/api/skins/aurora/cache/purge", reason),
        ("POST", "/admin/skins/aurora/cache/purge", reason),
        ("POST", "/admin/api/skins/aurora/players/demo1/revoke", reason),
        ("PUT", "/admin/skins/aurora/upstreams/api", {"url": "http://127.0.0.1:9/", "probe": False}),
        ("DELETE", "/admin/skins/aurora/upstreams/api", None),
        (
            "POST",
            "/admin/api/changes/preview",
            {"skin": "aurora", "upstream": "api", "url": "http://127.0.0.1:9", "baseVersion": "x"},
        ),
        (
            "POST",
            "/admin/api/changes",
            {"skin": "aurora", "upstream": "api", "url": "http://127.0.0.1:9", "baseVersion": "x", **reason},
        ),
        ("POST", "/admin/reload", None),
    ]:
        answer = await pia.call(method, path, json=body)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["code"] == "SKIN_FORBIDDEN", path
    assert (await pia.call("POST", "/admin/api/skins/pampa/cache/purge", json=reason)).status_code == 200
    refused = await _entries(listener, "skin-refused")
    assert len(refused) == 8 and {e["who"] for e in refused} == {"pia"} and refused[-1]["skin"] == "aurora"


async def test_a_disabled_operators_live_session_is_refused_at_once(listener: Listener) -> None:
    ada, otto = await listener.signed_in("ada"), await listener.signed_in("otto", "10.1.0.2")
    assert (await otto.call("GET", "/admin/api/session")).status_code == 200
    disabled = await ada.call("PATCH", "/admin/api/operators/otto", json={"disabled": True})
    assert disabled.status_code == 200 and disabled.json()["operator"]["disabled"] is True
    assert (await otto.call("GET", "/admin/api/session")).status_code == 401
    assert (await listener.browser().sign_in("otto")).status_code == 401
    assert (await ada.call("PATCH", "/admin/api/operators/otto", json={"disabled": False})).status_code == 200
    assert (await otto.call("GET", "/admin/api/session")).status_code == 401, "the old session stays ended"
    assert (await listener.browser().sign_in("otto")).status_code == 200
    assert [e["action"] for e in await _entries(listener, "operator-disable")] == ["operator-disable"]


async def test_ending_an_operators_sessions_signs_them_out_everywhere(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    vera_here, vera_there = await listener.signed_in("vera"), await listener.signed_in("vera", "10.1.0.3")
    assert (await ada.call("POST", "/admin/api/operators/vera/sessions/end")).status_code == 200
    for vera in (vera_here, vera_there):
        assert (await vera.call("GET", "/admin/api/session")).json()["code"] == "SIGNED_OUT"
    assert (await listener.signed_in("vera")) is not None, "she may sign in again"


async def test_role_and_skins_change_and_the_last_admin_stays(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    changed = await ada.call("PATCH", "/admin/api/operators/otto", json={"role": "viewer", "skins": ["aurora"]})
    assert changed.json()["operator"] == {
        "name": "otto",
        "role": "viewer",
        "skins": ["aurora"],
        "disabled": False,
        "hasPassword": True,
        "linkExpiresAt": None,
    }
    for body, field in [({"role": "operator"}, "role"), ({"disabled": True}, "disabled")]:
        refused = await ada.call("PATCH", "/admin/api/operators/ada", json=body)
        assert refused.status_code == 422 and refused.json()["errors"][0] == {
            "field": field,
            "code": "LAST_ADMIN",
            "message": "This is the last admin who can sign in: make another admin first",
        }
    assert read(listener.operators_file).accounts["ada"].role == "admin"
    done = [(e.action, e.outcome) for e in (await listener.audit.page(Query()))[0] if e.action.startswith("operator-")]
    assert sorted(done) == [
        ("operator-disable", "refused"),
        ("operator-role", "ok"),
        ("operator-role", "refused"),
        ("operator-skins", "ok"),
    ]


async def test_bad_input_is_answered_field_by_field_and_changes_nothing(listener: Listener) -> None:
    ada = await listener.signed_in("ada")
    before = listener.operators_file.read_text()
    for body, field, code in [
        ({"name": "otto", "role": "viewer"}, "name", "NAME_TAKEN"),
        ({"name": "Not a name!", "role": "viewer"}, "name", "NAME_INVALID"),
        ({"name": "neo", "role": "viewer", "skins": ["atlantis"]}, "skins", "UNKNOWN_SKIN"),
        ({"name": "neo", "role": "king"}, "role", "INVALID"),
    ]:
        answer = await ada.call("POST", "/admin/api/operators", json=body)
        assert answer.status_code == 422, answer.text
        assert (answer.json()["errors"][0]["field"], answer.json()["errors"][0]["code"]) == (field, code)
    assert (await ada.call("PATCH", "/admin/api/operators/nobody", json={"role": "viewer"})).status_code == 422
    assert listener.operators_file.read_text() == before


async def test_only_admins_manage_operators(listener: Listener) -> None:
    otto = await listener.signed_in("otto")
    assert (await otto.call("GET", "/admin/api/operators")).status_code == 403
    assert (await otto.call("POST", "/admin/api/operators", json={"name": "x", "role": "admin"})).status_code == 403
    ada = await listener.signed_in("ada")
    listed = (await ada.call("GET", "/admin/api/operators")).json()
    assert [o["name"] for o in listed["operators"]] == ["ada", "otto", "vera"] and listed["skins"] == [
        "aurora",
        "pampa",
    ]
    assert not any(secret in json.dumps(listed) for secret in SECRETS) and "argon2" not in json.dumps(listed)


async def test_a_token_limited_to_pampa_is_refused_aurora_too(listener: Listener) -> None:
    token = edits.edit(
        listener.operators_file, lambda f: edits.issue_token(f, "pampa-bot", "operator", False, ("pampa",))
    )
    bot = listener.browser()
    headers = {"authorization": f"Bearer {token}"}
    refused = await bot.call("POST", "/admin/skins/aurora/cache/purge", headers=headers)
    assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN"
    assert (await bot.call("POST", "/admin/skins/pampa/cache/purge", headers=headers)).status_code == 200
    [entry] = await _entries(listener, "skin-refused")
    assert (entry["who"], entry["via"], entry["skin"]) == ("pampa-bot", "token", "aurora")


async def test_a_rollback_touching_aurora_is_refused_to_a_pampa_operator(listener: Listener) -> None:
    admin, bot = {"authorization": f"Bearer {ADMIN_TOKEN}"}, listener.browser()
    for port in (9, 10):
        moved = await bot.call(
            "PUT",
            "/admin/skins/aurora/upstreams/api",
            json={"url": f"http://127.0.0.1:{port}", "probe": False},
            headers=admin,
        )
        assert moved.status_code == 200, moved.text
    pia = await _pia(listener)
    versions = (await pia.call("GET", "/admin/api/history")).json()["versions"]
    asked = {"to": versions[-1]["version"], "baseVersion": versions[0]["version"], "reason": "back to the start"}
    for path in ("/admin/api/rollback/preview", "/admin/api/rollback"):
        refused = await pia.call("POST", path, json=asked)
        assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN", (path, refused.text)
    assert listener.app.gateway.config.current.overrides == {"aurora": {"api": "http://127.0.0.1:10"}}
