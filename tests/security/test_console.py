"""The operators' console attacked on three gateway instances sharing one real Redis: passwords
guessed at once from many 127.0.0.0/8 addresses on every instance, cookie writes without the
CSRF token or from another site, a viewer calling the write API directly, the console looked
for on the public listener; and the audit trail, one for the cluster, read after a restart.
At the end no password, hash, token or cookie value is in any instance's log."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Iterator

import httpx
import pytest

from tests.support.cluster import Cluster, bound_client
from tests.support.console import ADMIN_TOKEN, OPERATORS, PASSWORDS, SECRETS, bearer, hashes, write_operators
from tests.support.fixtures import cluster_running
from tests.support.rawhttp import exchange

pytestmark = pytest.mark.redis
TARGET = "target-password-0001"
WRITES = [
    ("POST", "/admin/reload"),
    ("PUT", "/admin/skins/aurora/upstreams/api"),
    ("DELETE", "/admin/skins/aurora/upstreams/api"),
    ("POST", "/admin/skins/aurora/cache/purge"),
    ("POST", "/admin/skins/aurora/players/demo1/revoke"),
    ("GET", "/admin/api/audit/export"),
]


@pytest.fixture(scope="module")
def cookies() -> list[str]:
    """Every console cookie the tests were given: none may reach a log."""
    return []


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, cookies: list[str]) -> Iterator[Cluster]:
    workdir = tmp_path_factory.mktemp("console")
    operators = write_operators(workdir / "operators.toml", {**OPERATORS, "target": "operator"}, {"target": TARGET})
    env = {"OPERATORS_FILE": str(operators), "ADMIN_TOKEN": ADMIN_TOKEN}
    with cluster_running(workdir, env=env, never=lambda: [*SECRETS, *hashes(), TARGET, *cookies]) as running:
        yield running


def sign_in(cluster: Cluster, instance: int, name: str, source: str, cookies: list[str]) -> httpx.Client:
    client = bound_client(cluster.admin_urls[instance], source)
    answer = client.post("/admin/api/session", json={"name": name, "password": PASSWORDS[name]})
    assert answer.status_code == 200, answer.text
    cookies += [client.cookies["console"], client.cookies["console-csrf"]]
    return client


async def guesses(cluster: Cluster, tries: list[tuple[str, str, str]]) -> list[int]:
    """(source address, name, password) tried at once, spread over the instances: the statuses."""

    async def attempt(n: int, source: str, name: str, password: str) -> int:
        body = json.dumps({"name": name, "password": password}).encode()
        url = cluster.admin_urls[n % len(cluster.admin_urls)]
        return (
            await exchange(url, source, "POST", "/admin/api/session", {"content-type": "application/json"}, body)
        ).status

    return list(await asyncio.gather(*(attempt(n, *t) for n, t in enumerate(tries))))


def audit(cluster: Cluster, instance: int, query: str) -> list[dict[str, object]]:
    answer = httpx.get(
        cluster.admin_urls[instance] + "/admin/api/audit?limit=500&" + query, headers=bearer("ADMIN_TOKEN"), timeout=10
    )
    assert answer.status_code == 200, answer.text
    return list(answer.json()["entries"])


def test_guesses_at_one_name_from_60_addresses_on_3_instances_check_5_passwords(cluster: Cluster) -> None:
    tries = [(f"127.10.0.{n + 1}", "target", f"guess-number-{n:04d}") for n in range(60)]
    statuses = asyncio.run(guesses(cluster, tries))
    assert statuses.count(401) == 5 and statuses.count(429) == 55, statuses
    assert asyncio.run(guesses(cluster, [("127.10.1.1", "target", TARGET)])) == [429], "the right one waits too"
    failed = audit(cluster, 0, "action=sign-in-failed&who=target")
    assert len(failed) == 5 and len({e["address"] for e in failed}) == 5


def test_guesses_from_one_address_at_30_names_check_20_passwords(cluster: Cluster, cookies: list[str]) -> None:
    tries = [("127.11.0.1", f"name{n}", "guess-password-1") for n in range(30)]
    statuses = asyncio.run(guesses(cluster, tries))
    assert statuses.count(401) == 20 and statuses.count(429) == 10, statuses
    assert asyncio.run(guesses(cluster, [("127.11.0.1", "ada", PASSWORDS["ada"])])) == [429]
    sign_in(cluster, 2, "ada", "127.11.0.2", cookies).close()
    unknown = audit(cluster, 1, "action=sign-in-failed&who=(unknown)")
    assert len([e for e in unknown if e["address"] == "127.11.0.1"]) == 20


def test_cookie_writes_without_the_csrf_token_or_from_another_site_are_refused(
    cluster: Cluster, cookies: list[str]
) -> None:
    otto = sign_in(cluster, 0, "otto", "127.12.0.1", cookies)
    token = {"x-csrf-token": otto.cookies["console-csrf"]}
    purge = "/admin/skins/aurora/cache/purge"
    for instance, url in enumerate(cluster.admin_urls):  # one session on every instance (Redis)
        attempts = [
            {},
            {"x-csrf-token": "forged"},
            {**token, "origin": "https://evil.example"},
            {**token, "sec-fetch-site": "cross-site"},
        ]
        for headers in attempts:
            refused = otto.post(url + purge, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "CSRF", (instance, headers)
        assert otto.post(url + purge, headers=token).status_code == 200
    forged = bound_client(cluster.admin_urls[1], "127.12.0.2").post(
        "/admin/api/session",
        json={"name": "otto", "password": PASSWORDS["otto"]},
        headers={"sec-fetch-site": "cross-site"},
    )
    assert forged.status_code == 403 and "console" not in forged.cookies
    otto.close()


def test_a_viewer_changes_nothing_by_calling_the_api_directly(cluster: Cluster, cookies: list[str]) -> None:
    vera = sign_in(cluster, 1, "vera", "127.13.0.1", cookies)
    version = vera.get("/admin/status").json()["config"]["version"]
    for url in cluster.admin_urls:
        for method, path in WRITES:
            body = {"url": "http://127.0.0.1:1"} if method == "PUT" else None
            as_console = vera.request(
                method, url + path, json=body, headers={"x-csrf-token": vera.cookies["console-csrf"]}
            )
            as_token = httpx.request(method, url + path, json=body, headers=bearer("grafana"))
            for answer in (as_console, as_token):
                assert answer.status_code == 403 and answer.json()["code"] == "FORBIDDEN", (method, path)
    assert vera.get("/admin/status").json()["config"]["version"] == version
    assert audit(cluster, 0, "action=change") == [] and audit(cluster, 0, "action=reload") == []
    vera.close()


def test_the_console_is_not_on_the_public_listener(cluster: Cluster) -> None:
    for gateway in cluster.gateways:
        answer = httpx.post(gateway.url + "/admin/api/session", json={"name": "ada", "password": PASSWORDS["ada"]})
        assert answer.status_code != 200 and "console" not in answer.cookies
        listed = httpx.get(gateway.url + "/admin/api/audit", headers=bearer("ADMIN_TOKEN"))
        assert '"entries"' not in listed.text


def test_one_audit_trail_for_the_cluster_kept_across_a_restart(cluster: Cluster, cookies: list[str]) -> None:
    otto = sign_in(cluster, 1, "otto", "127.14.0.1", cookies)
    token = {"x-csrf-token": otto.cookies["console-csrf"]}
    assert otto.post("/admin/skins/aurora/cache/purge", headers=token).status_code == 200
    revoked = httpx.post(
        cluster.admin_urls[2] + "/admin/skins/aurora/players/demo1/revoke",
        headers={**bearer("deploy-bot"), "x-admin-user": "someone-else"},
    )
    assert revoked.status_code == 200
    otto.close()
    restarted = cluster.gateways[0]
    restarted.stop()
    restarted.start("/bff/health")
    ada = sign_in(cluster, 0, "ada", "127.14.0.2", cookies)
    entries = ada.get("/admin/api/audit?limit=500").json()["entries"]
    mine = [
        (e["action"], e["who"], e["via"], e["address"]) for e in entries if e["address"] in ("127.14.0.1", "127.0.0.1")
    ]
    assert ("purge", "otto", "console", "127.14.0.1") in mine
    assert ("revoke", "deploy-bot", "token", "127.0.0.1") in mine
    exported = ada.get("/admin/api/audit/export?format=csv&action=revoke")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert rows and rows[0]["who"] == "deploy-bot" and json.loads(rows[0]["detail"])["sessionsEnded"] >= 0
    ada.close()
