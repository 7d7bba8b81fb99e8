"""Maintenance, scheduled changes and approvals in one process, as players and operators meet
them: the site says it is in maintenance and refuses money calls and sign-ins without calling the
platform; bad windows and bad times are refused field by field; a scheduled change runs once at
its time the way an immediate one goes; an approval skin's change waits for another operator."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from gateway.app import admin_app
from gateway.console.plans.runner import Runner
from gateway.edge.entry import FrontDoor
from tests.support.browser import AsyncBrowser
from tests.support.console import ADMIN_TOKEN, bearer, write_operators
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio

SKINS = """
[[skins]]
id = "aurora"
site_id = "aurora"
name = "Aurora Casino"
hosts = ["aurora.test", "testserver.local"]
currency = "INR"
[skins.upstreams]
api = "{api}"
capi = "{api}"
sbapi = "{api}"
rest = "{api}"

[[skins]]
id = "pampa"
site_id = "pampa"
name = "Pampa"
hosts = ["pampa.test"]
currency = "ARS"
approval = true
[skins.upstreams]
api = "{api}"
capi = "{api}"
sbapi = "{api}"
rest = "{api}"
"""
CASHOUT = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "a@b"}


@dataclass
class Site:
    app: FrontDoor
    admin: httpx.AsyncClient
    player: AsyncBrowser

    async def as_(self, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
        return await self.admin.request(method, path, json=body, headers=bearer(who))

    @property
    def version(self) -> str:
        return self.app.gateway.config.version

    def base(self, skin: str = "aurora", upstream: str = "api") -> str:
        return self.app.gateway.config.current.skins.bases()[skin][upstream]


@pytest.fixture
async def site(tmp_path: Path, upstream: respx.Router) -> AsyncIterator[Site]:
    app = gateway_app(
        upstream,
        admin_token=ADMIN_TOKEN,
        operators_file=write_operators(tmp_path / "operators.toml"),
        audit_file=tmp_path / "audit.jsonl",
        probe_upstreams=False,
    )
    skins_file = tmp_path / "skins.toml"
    async with browser_on(app) as player:
        skins_file.write_text(SKINS.format(api=player.platform))
        app.gateway.config.skins_file = skins_file
        await app.gateway.config.reload("test skins")
        transport = httpx.ASGITransport(app=admin_app(app), client=("10.1.0.1", 50000))  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://admin") as admin:
            await player.start()
            yield Site(app, admin, player)


def codes(answer: httpx.Response) -> dict[str, str]:
    assert answer.status_code == 422, answer.text
    return {e["field"]: e["code"] for e in answer.json()["errors"]}


async def test_a_skin_in_maintenance_tells_players_and_refuses_money_without_calling_the_platform(
    site: Site, upstream: respx.Router
) -> None:
    cashout = upstream.post("/api/cashier/cashout12").mock(return_value=httpx.Response(200, json={"success": True}))
    assert (await site.player.login()).status_code == 200
    until = time.time() + 600
    message = {"es": "Volvemos pronto", "en": "Back soon"}
    body = {"until": until, "reason": "wallet migration", "message": message}
    answer = await site.as_("deploy-bot", "PUT", "/admin/api/skins/aurora/maintenance", body)
    assert answer.status_code == 200 and answer.json()["maintenance"]["active"] is True
    described = (await site.player.get("/bff/config")).json()["skin"]["maintenance"]
    assert described == {"until": until, "message": message}, "who set it and why stay with the operators"
    refused = await site.player.post("/api/cashier/cashout12", CASHOUT)
    assert refused.status_code == 503 and cashout.call_count == 0
    assert refused.json() == {
        "success": False,
        "code": "MAINTENANCE",
        "description": refused.json()["description"],
        "until": until,
    }
    assert 590 <= int(refused.headers["retry-after"]) <= 600
    assert (await site.player.login()).json()["code"] == "MAINTENANCE", "no sign-in while it lasts"
    assert (await site.as_("grafana", "GET", "/admin/api/maintenance")).json()["skins"]["aurora"]["by"] == "deploy-bot"
    ended = await site.as_("deploy-bot", "DELETE", "/admin/api/skins/aurora/maintenance", {"reason": "done early"})
    assert ended.status_code == 200
    assert (await site.player.get("/bff/config")).json()["skin"]["maintenance"] is None
    assert (await site.player.post("/api/cashier/cashout12", CASHOUT)).status_code == 200 and cashout.call_count == 1


async def test_a_windows_start_and_end_are_on_the_timeline_once(site: Site) -> None:
    gateway = site.app.gateway
    assert gateway.watch is not None
    runners = [Runner(gateway, gateway.audit), Runner(gateway, gateway.audit)]  # two rounds that see the same
    body = {"until": time.time() + 600, "reason": "wallet migration"}
    assert (await site.as_("deploy-bot", "PUT", "/admin/api/skins/aurora/maintenance", body)).status_code == 200
    for runner in runners:
        await runner.round(time.time())
    assert (
        await site.as_("deploy-bot", "DELETE", "/admin/api/skins/aurora/maintenance", {"reason": "done"})
    ).status_code == 200
    for runner in runners:
        await runner.round(time.time())
    entries = await gateway.watch.timeline.read(None, None, "aurora")
    assert [e["kind"] for e in entries] == ["maintenance.end", "maintenance.start"]
    assert "wallet migration" in entries[1]["detail"] and entries[0]["since"] is not None


async def test_a_window_set_for_later_is_not_on_until_it_starts(site: Site) -> None:
    start = time.time() + 300
    body = {"from": start, "until": start + 600, "reason": "planned upgrade"}
    answer = await site.as_("deploy-bot", "PUT", "/admin/api/skins/aurora/maintenance", body)
    assert answer.status_code == 200 and answer.json()["maintenance"]["active"] is False
    assert (await site.player.get("/bff/config")).json()["skin"]["maintenance"] is None
    maintenance = site.app.gateway.plans.maintenance
    assert maintenance.on("aurora", start + 1) is not None and maintenance.on("aurora", start + 601) is None


async def test_bad_windows_are_refused_field_by_field(site: Site) -> None:
    now = time.time()
    path = "/admin/api/skins/aurora/maintenance"
    cases: list[tuple[dict[str, Any], dict[str, str]]] = [
        ({"reason": "x"}, {"until": "REQUIRED", "reason": "REASON_TOO_SHORT"}),
        ({"until": now - 5, "reason": "late"}, {"until": "TIME_PAST"}),
        ({"until": "tomorrow", "reason": "words"}, {"until": "TIME_INVALID"}),
        ({"until": now + 40 * 86400, "reason": "long"}, {"until": "TIME_TOO_FAR"}),
        ({"from": now + 900, "until": now + 600, "reason": "reversed"}, {"until": "TIME_BEFORE_START"}),
        ({"until": now + 60, "reason": "msg", "message": {"fr": "Bientôt"}}, {"message.fr": "UNKNOWN_LANGUAGE"}),
        ({"until": now + 60, "reason": "msg", "message": {"en": "x" * 501}}, {"message.en": "MESSAGE_TOO_LONG"}),
    ]
    for body, expected in cases:
        assert codes(await site.as_("deploy-bot", "PUT", path, body)) == expected, body
    assert site.app.gateway.plans.maintenance.window("aurora") is None, "nothing half-set"
    assert (await site.as_("grafana", "PUT", path, {"until": now + 60, "reason": "viewer"})).status_code == 403


def change(site: Site, url: str, **more: Any) -> dict[str, Any]:
    return {
        "skin": "aurora",
        "upstream": "api",
        "url": url,
        "baseVersion": site.version,
        "reason": "new wallet",
        **more,
    }


async def test_a_scheduled_change_waits_for_its_time_then_runs_once(site: Site) -> None:
    before = site.base()
    at = time.time() + 0.3
    answer = await site.as_("deploy-bot", "POST", "/admin/api/changes", change(site, "http://wallet-2.test", at=at))
    assert answer.status_code == 202, answer.text
    item = answer.json()["scheduled"]
    assert (item["state"], item["kind"], item["by"], item["at"]) == ("pending", "change", "deploy-bot", at)
    assert site.base() == before, "nothing changes before its time"
    runner = Runner(site.app.gateway, site.app.gateway.audit)
    await runner.round(time.time())
    assert site.base() == before
    while time.time() < at:
        await runner.round(time.time())
    await runner.round(time.time())
    await runner.round(time.time())
    assert site.base() == "http://wallet-2.test"
    [ran] = (await site.as_("grafana", "GET", "/admin/api/scheduled")).json()["scheduled"]
    assert ran["state"] == "done" and ran["outcome"] == f"applied {site.version}" and ran["version"] == site.version
    assert (
        await site.as_("deploy-bot", "DELETE", f"/admin/api/scheduled/{ran['id']}", {"reason": "too late"})
    ).status_code == 409


async def test_a_scheduled_change_is_checked_again_when_it_runs(site: Site) -> None:
    at = time.time() + 0.2
    asked = change(site, "http://wallet-2.test", at=at)
    assert (await site.as_("deploy-bot", "POST", "/admin/api/changes", asked)).status_code == 202
    moved = change(site, "http://wallet-3.test", reason="someone else moved it first")
    assert (await site.as_("ADMIN_TOKEN", "POST", "/admin/api/changes", moved)).status_code == 200
    while time.time() < at:
        await Runner(site.app.gateway, site.app.gateway.audit).round(time.time())
    await Runner(site.app.gateway, site.app.gateway.audit).round(time.time() + 0.01)
    [item] = site.app.gateway.plans.schedule.listed()
    assert item.state == "failed" and (item.outcome or "").startswith("VERSION_CONFLICT"), item.outcome
    assert site.base() == "http://wallet-3.test", "the later change stands"


async def test_bad_times_and_overlaps_are_refused(site: Site) -> None:
    now = time.time()
    for at, code in [(now - 1, "TIME_PAST"), ("soon", "TIME_INVALID"), (now + 31 * 86400, "TIME_TOO_FAR")]:
        assert codes(
            await site.as_("deploy-bot", "POST", "/admin/api/changes", change(site, "http://w.test", at=at))
        ) == {"at": code}
    first = await site.as_("deploy-bot", "POST", "/admin/api/changes", change(site, "http://w.test", at=now + 3600))
    assert first.status_code == 202
    near = change(site, "http://w2.test", at=now + 3600 + 120)
    assert codes(await site.as_("ADMIN_TOKEN", "POST", "/admin/api/changes", near)) == {"at": "TIME_OVERLAPS"}
    elsewhere = change(site, "http://w2.test", at=now + 3600 + 120, upstream="capi")
    assert (await site.as_("ADMIN_TOKEN", "POST", "/admin/api/changes", elsewhere)).status_code == 202
    item = first.json()["scheduled"]["id"]
    assert codes(await site.as_("deploy-bot", "DELETE", f"/admin/api/scheduled/{item}", {})) == {
        "reason": "REASON_TOO_SHORT"
    }
    cancelled = await site.as_("deploy-bot", "DELETE", f"/admin/api/scheduled/{item}", {"reason": "not tonight"})
    assert cancelled.json()["scheduled"]["state"] == "cancelled"
    assert await site.app.gateway.plans.schedule.due_for("aurora", now + 86400) is not None, "the capi one is due"


async def test_an_approval_skins_change_waits_for_another_operator(site: Site) -> None:
    asked = {**change(site, "http://pampa-wallet.test"), "skin": "pampa"}
    answer = await site.as_("deploy-bot", "POST", "/admin/api/changes", asked)
    assert answer.status_code == 202, answer.text
    approval = answer.json()["approval"]
    assert (approval["state"], approval["by"]) == ("pending", "deploy-bot")
    assert site.base("pampa") != "http://pampa-wallet.test"
    path = f"/admin/api/approvals/{approval['id']}"
    own = await site.as_("deploy-bot", "POST", path + "/approve", {"reason": "looks fine to me"})
    assert own.status_code == 403 and own.json()["code"] == "SELF_APPROVAL"
    approved = await site.as_("ADMIN_TOKEN", "POST", path + "/approve", {"reason": "checked with the platform"})
    assert approved.status_code == 200, approved.text
    decided = approved.json()["approval"]
    assert (decided["state"], decided["endedBy"]) == ("approved", "ADMIN_TOKEN")
    assert decided["outcome"].startswith("applied ") and site.base("pampa") == "http://pampa-wallet.test"
    again = await site.as_("ADMIN_TOKEN", "POST", path + "/reject", {"reason": "changed my mind"})
    assert again.status_code == 409 and again.json()["code"] == "APPROVAL_ENDED"


async def test_a_rejected_approval_changes_nothing_and_the_trail_says_who_asked(site: Site) -> None:
    asked = {**change(site, "http://pampa-wallet.test"), "skin": "pampa"}
    approval = (await site.as_("deploy-bot", "POST", "/admin/api/changes", asked)).json()["approval"]
    rejected = await site.as_(
        "ADMIN_TOKEN", "POST", f"/admin/api/approvals/{approval['id']}/reject", {"reason": "not now"}
    )
    assert rejected.json()["approval"]["state"] == "rejected" and site.base("pampa") != "http://pampa-wallet.test"
    trail = (await site.as_("ADMIN_TOKEN", "GET", "/admin/api/audit?action=approval-rejected")).json()["entries"]
    assert [(e["who"], e["detail"]["askedBy"], e["reason"]) for e in trail] == [
        ("ADMIN_TOKEN", "deploy-bot", "not now")
    ]


async def test_a_bearer_api_change_on_an_approval_skin_waits_too_and_runs_on_whatever_is_current(site: Site) -> None:
    answer = await site.as_("deploy-bot", "PUT", "/admin/skins/pampa/upstreams/api", {"url": "http://pampa-2.test"})
    assert answer.status_code == 202, answer.text
    approval = answer.json()["approval"]
    assert approval["asked"].get("baseVersion") is None
    path = f"/admin/api/approvals/{approval['id']}/approve"
    approved = await site.as_("ADMIN_TOKEN", "POST", path, {"reason": "the script's change, checked"})
    assert approved.json()["approval"]["outcome"] == f"applied {site.version}"
    assert site.base("pampa") == "http://pampa-2.test"


async def test_ended_records_are_dropped_after_a_month(site: Site) -> None:
    at = time.time() + 60
    answer = await site.as_("deploy-bot", "POST", "/admin/api/changes", change(site, "http://w.test", at=at))
    item = answer.json()["scheduled"]["id"]
    assert (
        await site.as_("deploy-bot", "DELETE", f"/admin/api/scheduled/{item}", {"reason": "not now"})
    ).status_code == 200
    plans = site.app.gateway.plans
    await plans.prune(time.time() + 29 * 86400)
    assert plans.schedule.get(item) is not None
    await plans.prune(time.time() + 31 * 86400)
    assert plans.schedule.get(item) is None


async def test_a_runner_sleeps_until_its_next_moment_not_while_another_instance_runs_an_item(site: Site) -> None:
    gateway = site.app.gateway
    runner = Runner(gateway, gateway.audit)
    assert runner.sleep_s(time.time()) == 3600.0, "nothing planned: an hour"
    at = time.time() + 120
    assert (
        await site.as_("deploy-bot", "POST", "/admin/api/changes", change(site, "http://w.test", at=at))
    ).status_code == 202
    assert 110 < runner.sleep_s(time.time()) <= 120
    [item] = gateway.plans.schedule.pending()
    assert await gateway.plans.schedule.claim(item, "another instance")
    await runner.round(at + 1)  # due, but claimed elsewhere: left to its holder
    assert gateway.plans.schedule.get(item.id).state == "pending"  # type: ignore[union-attr]
    assert runner.sleep_s(at + 1) > 290, "then it waits for the holder (STUCK_S), it does not spin"
    await runner.round(at + 301)
    assert (gateway.plans.schedule.get(item.id).outcome or "").startswith("INTERRUPTED")  # type: ignore[union-attr]


def canary(site: Site, url: str, **more: Any) -> dict[str, Any]:
    steps = [{"share": 0.5, "holdS": 60}, {"share": 1, "holdS": 60}]
    return {**change(site, url, upstream="capi"), "steps": steps, **more}


async def test_a_canary_does_not_start_over_a_change_scheduled_within_its_steps(site: Site) -> None:
    asked = change(site, "http://w.test", at=time.time() + 90)
    soon = await site.as_("deploy-bot", "POST", "/admin/api/changes", asked)
    assert soon.status_code == 202, soon.text
    over = await site.as_("ADMIN_TOKEN", "POST", "/admin/api/canaries", canary(site, "http://c.test"))
    assert over.status_code == 409 and over.json()["code"] == "SCHEDULED_CHANGE_DUE", over.text
    short = canary(site, "http://c.test", steps=[{"share": 1, "holdS": 30}])
    started = await site.as_("ADMIN_TOKEN", "POST", "/admin/api/canaries", short)
    assert started.status_code == 201, started.text  # over before the change is due


async def test_a_canary_given_a_time_starts_then_as_its_operator(site: Site) -> None:
    at = time.time() + 0.3
    kept = await site.as_("deploy-bot", "POST", "/admin/api/canaries", canary(site, "http://c.test", at=at))
    assert kept.status_code == 202 and kept.json()["scheduled"]["kind"] == "canary", kept.text
    assert site.app.gateway.canaries is not None and site.app.gateway.canaries.board.current("aurora") is None
    runner = Runner(site.app.gateway, site.app.gateway.audit)
    while time.time() < at:
        await runner.round(time.time())
    await runner.round(time.time() + 0.01)
    [item] = site.app.gateway.plans.schedule.listed()
    live = site.app.gateway.canaries.board.current("aurora")
    assert live is not None and live.started_by == "deploy-bot" and live.after == "http://c.test"
    assert item.state == "done" and item.outcome == f"started {live.id}", item.outcome


async def test_an_approval_skins_canary_starts_once_another_operator_approves(site: Site) -> None:
    asked = {**canary(site, "http://pampa-c.test"), "skin": "pampa"}
    answer = await site.as_("deploy-bot", "POST", "/admin/api/canaries", asked)
    assert answer.status_code == 202 and answer.json()["approval"]["kind"] == "canary", answer.text
    assert site.app.gateway.canaries is not None and site.app.gateway.canaries.board.current("pampa") is None
    path = f"/admin/api/approvals/{answer.json()['approval']['id']}/approve"
    approved = await site.as_("ADMIN_TOKEN", "POST", path, {"reason": "second pair of eyes"})
    assert approved.status_code == 200 and approved.json()["approval"]["outcome"].startswith("started "), approved.text
    live = site.app.gateway.canaries.board.current("pampa")
    assert live is not None and live.started_by == "deploy-bot"
