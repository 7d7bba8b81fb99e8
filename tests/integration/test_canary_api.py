"""The canaries' admin API on two gateway instances sharing one Redis, as operators use it: a start
validated field by field as a change is (and refused whole: nothing starts), one live canary per
skin however many operators start one at once, anywhere; pause, resume, promote now and abort, each
with a reason and in the trail; a skin-limited operator kept to their skins; the status line."""

from __future__ import annotations

import concurrent.futures
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from gateway.accounts.operators import Account, RosterFile, Token, token_digest
from gateway.accounts.roster import render
from tests.support.cluster import PAMPA_SKIN, Cluster, Process, given_redis, start_cluster
from tests.support.console import OPERATORS, PASSWORDS, TOKENS, password_hash
from tests.support.console import signed_in as sign_in
from tests.support.stack import free_port

pytestmark = pytest.mark.redis

PIA_PASSWORD = "a harbour at dawn 7"
FAST = {"steps": [{"share": 0.5, "holdS": 3600}, {"share": 1.0, "holdS": 3600}]}
"""Steps that hold long: the controller moves nothing while a test looks."""


@dataclass
class Site:
    cluster: Cluster
    new: Process
    """A second sandbox: the canaries' new upstream."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp("canary-api")
    accounts = [Account(name, role, password_hash(PASSWORDS[name])) for name, role in OPERATORS.items()]
    pia = Account("pia", "operator", password_hash(PIA_PASSWORD), skins=("pampa",))
    tokens = [Token(name, role, token_digest(token)) for name, (role, token) in TOKENS.items()]
    operators = workdir / "operators.toml"
    operators.write_text(render(RosterFile([*accounts, pia], tokens)))
    env = {"OPERATORS_FILE": str(operators)}
    cluster = start_cluster(workdir, instances=2, env=env, extra_skins=PAMPA_SKIN, redis=given_redis(workdir))
    port = free_port()
    argv = [sys.executable, "-m", "sandbox", "--port", str(port)]
    new = Process("sandbox-new", argv, {**cluster.sandbox.env}, f"http://127.0.0.1:{port}", workdir / "sandbox-new.log")
    try:
        new.start("/_sandbox/health")
        yield Site(cluster, new)
    finally:
        new.stop()
        cluster.stop()
    cluster.assert_clean_logs(*PASSWORDS.values(), PIA_PASSWORD)


def config(client: httpx.Client) -> dict[str, Any]:
    return dict(client.get("/admin/status").json()["config"])


def version(client: httpx.Client) -> str:
    return str(config(client)["version"])


def start(client: httpx.Client, site: Site, skin: str = "aurora", **more: Any) -> httpx.Response:
    body = {"skin": skin, "upstream": "api", "url": site.new.url, "baseVersion": version(client)}
    return client.post("/admin/api/canaries", json={**body, "reason": "the new wallet", **FAST, **more})


def errors(answer: httpx.Response) -> dict[str, str]:
    assert answer.status_code == 422, answer.text
    return {e["field"]: e["code"] for e in answer.json()["errors"]}


def entries(client: httpx.Client, action: str) -> list[dict[str, Any]]:
    return list(client.get("/admin/api/audit", params={"action": action}).json()["entries"])


def abort(client: httpx.Client, canary_id: str) -> None:
    answer = client.post(f"/admin/api/canaries/{canary_id}/abort", json={"reason": "test over"})
    assert answer.status_code in (200, 409), answer.text


def test_a_start_that_cannot_be_met_is_refused_field_by_field_and_nothing_starts(site: Site) -> None:
    a, _ = site.cluster.admin_urls
    otto = sign_in(a, "otto")
    wrong_steps = [
        [{"share": 0.5, "holdS": 60}, {"share": 0.2, "holdS": 60}, {"share": 1.0, "holdS": 60}],
        [{"share": 0.1, "holdS": 60}, {"share": 0.5, "holdS": 60}],
        [{"share": 0.5, "holdS": 0.5}, {"share": 1.0, "holdS": 60}],
        [{"share": (n + 1) / 11, "holdS": 60} for n in range(11)],
        [{"share": 1.0}],
        [],
    ]
    for steps in wrong_steps:
        assert errors(start(otto, site, steps=steps)) == {"steps": "STEPS_INVALID"}, steps
    thresholds = {"maxP99S": -0.1, "maxErrorShare": 2, "failedChecks": 0, "checkEveryS": 0.5, "minAnswers": "x"}
    found = errors(start(otto, site, thresholds={**thresholds, "maxMystery": 1}))
    named = [*thresholds, "maxMystery"]
    assert found == {f"thresholds.{name}": "THRESHOLD_INVALID" for name in named}
    assert errors(start(otto, site, thresholds={"maxP99S": 0})) == {"thresholds.maxP99S": "THRESHOLD_INVALID"}
    found = errors(start(otto, site, url="ftp://elsewhere.test", reason="", baseVersion=None))
    assert found == {"url": "URL_SCHEME", "reason": "REASON_TOO_SHORT", "baseVersion": "REQUIRED"}
    assert errors(start(otto, site, url=site.cluster.sandbox.url)) == {"url": "UNCHANGED"}
    assert errors(start(otto, site, url="http://127.0.0.1:9")) == {"url": "URL_UNREACHABLE"}
    assert errors(start(otto, site, baseVersion="no-such-version")) == {"baseVersion": "UNKNOWN_VERSION"}
    assert otto.get("/admin/api/canaries").json()["canaries"] == []
    refused = entries(otto, "canary-start")
    assert refused and {e["outcome"] for e in refused} == {"refused"} and refused[0]["who"] == "otto"


def test_one_live_canary_per_skin_seen_by_every_instance(site: Site) -> None:
    a, b = site.cluster.admin_urls
    otto, ada = sign_in(a, "otto"), sign_in(b, "ada")
    started = start(otto, site)
    assert started.status_code == 201, started.text
    canary = started.json()["canary"]
    assert (canary["state"], canary["step"], canary["share"], canary["startedBy"]) == ("running", 0, 0.5, "otto")
    assert (canary["before"], canary["after"]) == (site.cluster.sandbox.url, site.new.url)
    assert canary["thresholds"]["maxP99S"] == 0.5 and canary["steps"][1] == {"share": 1.0, "holdS": 3600.0}
    again = start(ada, site)
    assert again.status_code == 409 and again.json()["code"] == "CANARY_RUNNING"
    listed = ada.get("/admin/api/canaries").json()["canaries"]
    assert [c["id"] for c in listed] == [canary["id"]]
    assert ada.get(f"/admin/api/canaries/{canary['id']}").json()["canary"]["id"] == canary["id"]
    status = ada.get("/admin/api/status").json()["canaries"]
    assert status == [
        {"id": canary["id"], "skin": "aurora", "upstream": "api", "state": "running", "step": 0, "share": 0.5}
    ]
    assert ada.get("/admin/api/canaries/aurora-nope").status_code == 404
    abort(otto, canary["id"])
    assert [e["outcome"] for e in entries(ada, "canary-start")][:2] == ["conflict", "ok"]


def test_two_operators_starting_on_two_instances_at_once_one_wins(site: Site) -> None:
    a, b = site.cluster.admin_urls
    clients = [sign_in(a, "otto"), sign_in(b, "ada")]
    body = {"skin": "pampa", "upstream": "capi", "url": site.new.url, "baseVersion": version(clients[0])}

    def started(client: httpx.Client) -> httpx.Response:
        return client.post("/admin/api/canaries", json={**body, "reason": "race", **FAST})

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(started, clients))
    assert sorted(r.status_code for r in answers) == [201, 409], [r.text for r in answers]
    winner = next(r.json()["canary"] for r in answers if r.status_code == 201)
    loser = next(r.json() for r in answers if r.status_code == 409)
    assert loser["code"] == "CANARY_RUNNING" and winner["id"] in loser["message"]
    abort(clients[0], winner["id"])


def test_pause_resume_and_abort_each_with_a_reason_in_the_trail(site: Site) -> None:
    a, b = site.cluster.admin_urls
    otto, ada = sign_in(a, "otto"), sign_in(b, "ada")
    canary = start(otto, site).json()["canary"]
    path = f"/admin/api/canaries/{canary['id']}"
    assert errors(otto.post(path + "/pause", json={"reason": "no"})) == {"reason": "REASON_TOO_SHORT"}
    paused = ada.post(path + "/pause", json={"reason": "the payment provider calls"})
    assert paused.status_code == 200 and paused.json()["canary"]["state"] == "paused"
    assert otto.get("/admin/api/status").json()["canaries"][0]["state"] == "paused"
    resumed = otto.post(path + "/resume", json={"reason": "they said it is fine"})
    assert resumed.json()["canary"]["state"] == "running"
    aborted = otto.post(path + "/abort", json={"reason": "we go another way"})
    ended = aborted.json()["canary"]
    assert (ended["state"], ended["endedBy"], ended["endedReason"], ended["share"]) == (
        "aborted",
        "otto",
        "we go another way",
        0.0,
    )
    late = ada.post(path + "/pause", json={"reason": "too late now"})
    assert late.status_code == 409 and late.json()["code"] == "CANARY_ENDED"
    assert ada.get("/admin/api/status").json()["canaries"] == []
    moves = [
        (e["action"], e["who"], e["outcome"], e["reason"])
        for e in reversed(ada.get("/admin/api/audit").json()["entries"])
    ]
    mine = [m for m in moves if m[0].startswith("canary-")][-6:]
    assert mine == [
        ("canary-start", "otto", "ok", "the new wallet"),
        ("canary-pause", "otto", "refused", "no"),
        ("canary-pause", "ada", "ok", "the payment provider calls"),
        ("canary-resume", "otto", "ok", "they said it is fine"),
        ("canary-abort", "otto", "ok", "we go another way"),
        ("canary-pause", "ada", "conflict", "too late now"),
    ]
    timeline = [e["kind"] for e in ada.get("/admin/api/events", params={"skin": "aurora"}).json()["entries"]]
    assert timeline[:4] == ["canary.aborted", "canary.resumed", "canary.paused", "canary.started"]


def test_a_skin_limited_operator_starts_and_moves_canaries_of_their_skins_only(site: Site) -> None:
    a, b = site.cluster.admin_urls
    pia, otto = sign_in(a, "pia", PIA_PASSWORD), sign_in(b, "otto")
    refused = start(pia, site, skin="aurora")
    assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN"
    theirs = start(otto, site, skin="aurora").json()["canary"]
    refused = pia.post(f"/admin/api/canaries/{theirs['id']}/abort", json={"reason": "not mine"})
    assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN"
    abort(otto, theirs["id"])
    mine = start(pia, site, skin="pampa")
    assert mine.status_code == 201, mine.text
    abort(pia, mine.json()["canary"]["id"])


def test_promote_now_makes_the_new_upstream_the_skins_version_on_every_instance(site: Site) -> None:
    a, b = site.cluster.admin_urls
    otto, ada = sign_in(a, "otto"), sign_in(b, "ada")
    before = version(otto)
    canary = start(otto, site, skin="pampa").json()["canary"]
    promoted = ada.post(f"/admin/api/canaries/{canary['id']}/promote", json={"reason": "the numbers are fine"})
    ended = promoted.json()["canary"]
    assert (ended["state"], ended["endedBy"]) == ("promoted", "ada") and ended["promotedVersion"] != before
    assert ended["drainUntil"] > ended["ended"] + 29 * 86400, "the old side's sessions keep it until they end"
    for client in (otto, ada):
        now = config(client)
        assert now["version"] == ended["promotedVersion"] and now["overrides"]["pampa"]["api"] == site.new.url
    assert entries(ada, "canary-promote")[0]["who"] == "ada"
    back = {"skin": "pampa", "upstream": "api", "url": None, "baseVersion": version(otto), "reason": "back to the file"}
    assert otto.post("/admin/api/changes", json=back).status_code == 200


def test_a_start_from_a_version_the_skin_moved_on_from_is_a_conflict(site: Site) -> None:
    a, _ = site.cluster.admin_urls
    otto = sign_in(a, "otto")
    old = version(otto)
    moved = {"skin": "pampa", "upstream": "rest", "url": site.new.url, "baseVersion": old, "reason": "rest moves"}
    assert otto.post("/admin/api/changes", json=moved).status_code == 200
    late = start(otto, site, skin="pampa", baseVersion=old)
    assert late.status_code == 409 and late.json()["code"] == "VERSION_CONFLICT", late.text
    back = {**moved, "url": None, "baseVersion": version(otto)}
    assert otto.post("/admin/api/changes", json=back).status_code == 200
