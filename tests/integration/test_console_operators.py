"""Operators managed from the console on two gateway instances sharing one Redis and one
operators file, as admins run it: an operator disabled through instance A is refused on B at
their very next request; an operator limited to pampa gets 403 on aurora's routes on both
instances, each refusal in the one trail; a one-time sign-in link made on A works once, on B."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.support.cluster import PAMPA_SKIN, Cluster, given_redis
from tests.support.console import PASSWORDS, write_operators
from tests.support.console import signed_in as sign_in
from tests.support.fixtures import cluster_fixture

pytestmark = pytest.mark.redis

PIA_PASSWORD = "a harbour at dawn 7"
REASON = {"reason": "checking the limits"}


def operators_env(workdir: Path) -> dict[str, str]:
    operators = write_operators(workdir / "operators.toml")
    return {"OPERATORS_FILE": str(operators), "SKINS_POLL_S": "30"}  # no help from the poll: each request looks


cluster = cluster_fixture(
    "console-operators",
    instances=2,
    env=operators_env,
    extra_skins=PAMPA_SKIN,
    redis=given_redis,
    never=[*PASSWORDS.values(), PIA_PASSWORD],
)


def test_an_operator_disabled_on_one_instance_is_refused_on_the_other_at_once(cluster: Cluster) -> None:
    a, b = cluster.admin_urls
    ada, otto = sign_in(a, "ada"), sign_in(b, "otto")
    assert otto.get("/admin/api/session").status_code == 200
    assert ada.patch("/admin/api/operators/otto", json={"disabled": True}).status_code == 200
    refused = otto.get("/admin/api/session")
    assert refused.status_code == 401 and refused.json()["code"] == "SIGNED_OUT"
    assert httpx.post(b + "/admin/api/session", json={"name": "otto", "password": PASSWORDS["otto"]}).status_code == 401
    assert ada.patch("/admin/api/operators/otto", json={"disabled": False}).status_code == 200
    sign_in(b, "otto")


def test_a_link_works_once_and_a_pampa_operator_cannot_touch_aurora_anywhere(cluster: Cluster) -> None:
    a, b = cluster.admin_urls
    ada = sign_in(a, "ada")
    added = ada.post("/admin/api/operators", json={"name": "pia", "role": "operator", "skins": ["pampa"]})
    assert added.status_code == 201, added.text
    token = added.json()["link"]["path"].partition("#")[2]
    welcome = {"token": token, "password": PIA_PASSWORD}
    assert httpx.post(b + "/admin/api/welcome", json=welcome).status_code == 200
    again = httpx.post(a + "/admin/api/welcome", json={**welcome, "password": "someone else's 9"})
    assert again.status_code == 422 and again.json()["errors"][0]["code"] == "LINK_INVALID"
    for url in (a, b):
        pia = sign_in(url, "pia", PIA_PASSWORD)
        refused = pia.post("/admin/api/skins/aurora/cache/purge", json=REASON)
        assert refused.status_code == 403 and refused.json()["code"] == "SKIN_FORBIDDEN", url
        assert pia.post("/admin/api/skins/pampa/cache/purge", json=REASON).status_code == 200
    trail = ada.get("/admin/api/audit", params={"action": "skin-refused"}).json()
    assert [(e["who"], e["skin"]) for e in trail["entries"]] == [("pia", "aurora")] * 2
    used = ada.get("/admin/api/audit", params={"action": "operator-link-used"}).json()["entries"]
    assert [e["outcome"] for e in used] == ["refused", "ok"]
