"""Maintenance, scheduled changes and approvals on three gateway instances sharing one real Redis:
a window set on one instance is on every instance's site within a second, and every instance
refuses a withdrawal with MAINTENANCE without the platform seeing it; a change scheduled through
an instance that is SIGKILLed before its time runs once, on another; an approval skin's change is
refused to its own asker and applied by a second operator through another instance."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.accounts.operators import token_digest
from tests.support.browser import Browser
from tests.support.cluster import Cluster, extra_skin
from tests.support.fixtures import cluster_fixture, sandbox_url_fixture, upstream_calls

pytestmark = pytest.mark.redis

TOKENS = {"alice": "alice-token-0123456789abcdef", "bob": "bob-token-0123456789abcdefgh"}
VAULT = extra_skin("vault", "Vault", "approval = true")
CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}


def operators_env(workdir: Path) -> dict[str, str]:
    """The operators file of the two tokens, written in the cluster's folder."""
    operators = workdir / "operators.toml"
    operators.write_text(
        "".join(
            f'[[tokens]]\nname = "{name}"\nrole = "operator"\ntoken_sha256 = "{token_digest(token)}"\n\n'
            for name, token in TOKENS.items()
        )
    )
    return {"OPERATORS_FILE": str(operators)}


cluster = cluster_fixture("maintenance", env=operators_env, extra_skins=VAULT, never=TOKENS.values())
sandbox_url = sandbox_url_fixture("cluster")


def admin(cluster: Cluster, instance: int, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {TOKENS[who]}"}
    return httpx.request(method, cluster.admin_urls[instance] + path, json=body, headers=headers, timeout=20)


def until_true(check: Callable[[], bool], within_s: float, what: str) -> float:
    """Seconds it took `check` to hold (fails past `within_s`)."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < within_s, f"{what} not within {within_s} s"
        time.sleep(0.02)
    return time.monotonic() - started


def described(cluster: Cluster, instance: int) -> Any:
    return httpx.get(cluster.gateways[instance].url + "/bff/config", timeout=5).json()["skin"]["maintenance"]


def test_a_window_reaches_every_instance_within_a_second_and_no_withdrawal_reaches_the_platform(
    cluster: Cluster, control: httpx.Client
) -> None:
    player = Browser(*(g.url for g in cluster.gateways))
    assert player.attempt_login().json()["success"] is True
    control.delete("/_sandbox/calls")
    until = time.time() + 300
    body = {"until": until, "reason": "platform upgrade", "message": {"en": "Back at two"}}
    assert admin(cluster, 0, "alice", "PUT", "/admin/api/skins/aurora/maintenance", body).status_code == 200
    for n in range(3):
        until_true(lambda n=n: described(cluster, n) is not None, 1.0, f"instance {n}'s site in maintenance")
    for n in range(3):
        refused = player.post(CASHOUT, WITHDRAWAL, on=n)
        assert (
            refused.status_code == 503 and refused.json()["code"] == "MAINTENANCE" and refused.json()["until"] == until
        )
    assert upstream_calls(control, "cashout12") == 0, "the platform saw no withdrawal"
    assert (
        admin(cluster, 2, "bob", "DELETE", "/admin/api/skins/aurora/maintenance", {"reason": "done"}).status_code == 200
    )
    for n in range(3):
        until_true(lambda n=n: described(cluster, n) is None, 1.0, f"instance {n}'s site back")
    assert player.post(CASHOUT, WITHDRAWAL, on=1).status_code == 200
    player.close()


def vault_api(cluster: Cluster, instance: int) -> str:
    skins = admin(cluster, instance, "alice", "GET", "/admin/api/overview").json()["skins"]
    return next(u["url"] for s in skins if s["id"] == "vault" for u in s["upstreams"] if u["name"] == "api")


def version(cluster: Cluster, instance: int) -> str:
    return str(admin(cluster, instance, "alice", "GET", "/admin/api/instances").json()["current"])


def test_an_approval_skins_change_needs_a_second_operator_on_any_instance(cluster: Cluster) -> None:
    url = cluster.sandbox.url.replace("127.0.0.1", "localhost")
    asked = {"skin": "vault", "upstream": "api", "url": url, "baseVersion": version(cluster, 1), "reason": "new wallet"}
    answer = admin(cluster, 1, "alice", "POST", "/admin/api/changes", asked)
    assert answer.status_code == 202, answer.text
    approval = answer.json()["approval"]["id"]
    path = f"/admin/api/approvals/{approval}"
    until_true(lambda: admin(cluster, 2, "bob", "GET", "/admin/api/approvals").json()["approvals"] != [], 1.0, "seen")
    own = admin(cluster, 2, "alice", "POST", path + "/approve", {"reason": "mine is fine"})
    assert own.status_code == 403 and own.json()["code"] == "SELF_APPROVAL"
    assert vault_api(cluster, 0) != url
    approved = admin(cluster, 2, "bob", "POST", path + "/approve", {"reason": "checked it"})
    assert approved.status_code == 200 and approved.json()["approval"]["outcome"].startswith("applied"), approved.text
    until_true(lambda: vault_api(cluster, 0) == url, 2.0, "the change on instance 0")


def test_a_change_scheduled_on_an_instance_killed_before_its_time_runs_once_on_another(
    cluster: Cluster, tmp_path: Path
) -> None:
    url = cluster.sandbox.url.replace("127.0.0.1", "localhost")
    at = time.time() + 3
    asked = {"skin": "aurora", "upstream": "capi", "url": url, "baseVersion": version(cluster, 0), "reason": "at two"}
    answer = admin(cluster, 0, "alice", "POST", "/admin/api/changes", {**asked, "at": at})
    assert answer.status_code == 202, answer.text
    item = answer.json()["scheduled"]["id"]
    cluster.gateways[0].kill()  # SIGKILL: no goodbye

    def ran() -> bool:
        found = admin(cluster, 1, "bob", "GET", "/admin/api/scheduled").json()["scheduled"]
        return any(i["id"] == item and i["state"] != "pending" for i in found)

    until_true(ran, at - time.time() + 5, "the scheduled change")
    [done] = [i for i in admin(cluster, 2, "bob", "GET", "/admin/api/scheduled").json()["scheduled"] if i["id"] == item]
    assert done["state"] == "done", done
    runs = admin(cluster, 1, "bob", "GET", "/admin/api/audit?action=schedule-run").json()["entries"]
    assert [e["detail"]["id"] for e in runs].count(item) == 1, "run once"
    history = admin(cluster, 1, "bob", "GET", "/admin/api/history").json()["versions"]
    assert sum(1 for v in history if any(c.get("after") == url and c["upstream"] == "capi" for c in v["changes"])) == 1
    cluster.gateways[0].start("/bff/health")
