"""The console's changes and the platform's check, on the product as it runs (gateway and sandbox
in a process, an nginx default page beside them): a preview says whether the new base URL speaks
the platform, or names the call and why not; applying one that does not is refused unless the
operator overrides the check with a reason, and the audit trail says the check failed, that it
was overridden and why. The bearer API and rollbacks go the same way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway.accounts.operators import token_digest
from tests.support.default_page import nginx_default_page
from tests.support.stack import Stack, free_port, start_stack

TOKEN = "contract-check-operator-token-0123456789"
NOT_JSON = "does not speak the platform: 0/9 documented calls valid; homeBanners: answered text/html, not JSON"


@pytest.fixture(scope="module")
def nginx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with nginx_default_page(tmp_path_factory.mktemp("nginx")) as url:
        yield url


@pytest.fixture(scope="module")
def product(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, str]]:
    workdir = tmp_path_factory.mktemp("contract")
    operators = workdir / "operators.toml"
    operators.write_text(
        f'[[tokens]]\nname = "deploy-bot"\nrole = "operator"\ntoken_sha256 = "{token_digest(TOKEN)}"\n'
    )
    port = free_port()
    env = {"OPERATORS_FILE": str(operators), "AUDIT_FILE": str(workdir / "audit.jsonl"), "ADMIN_PORT": str(port)}
    stack = start_stack(workdir, env=env)
    yield stack, f"http://127.0.0.1:{port}"
    assert stack.stop() == 0
    assert TOKEN not in stack.logs()


def admin(product: tuple[Stack, str], method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {TOKEN}"}
    return httpx.request(method, product[1] + path, json=body, headers=headers, timeout=30)


def version(product: tuple[Stack, str]) -> str:
    return str(admin(product, "GET", "/admin/status").json()["config"]["version"])


def capi_url(product: tuple[Stack, str]) -> str:
    status = admin(product, "GET", "/admin/status").json()
    return str(next(s for s in status["skins"] if s["id"] == "aurora")["upstreams"]["capi"])


def newest(product: tuple[Stack, str], action: str = "change") -> dict[str, Any]:
    entries: list[dict[str, Any]] = admin(product, "GET", f"/admin/api/audit?action={action}").json()["entries"]
    return entries[0]


def test_a_preview_says_whether_the_new_url_speaks_the_platform(product: tuple[Stack, str], nginx: str) -> None:
    stack, _ = product
    moved = stack.sandbox_url.replace("127.0.0.1", "localhost")
    asked = {"skin": "aurora", "upstream": "capi", "url": moved, "baseVersion": version(product)}
    good = admin(product, "POST", "/admin/api/changes/preview", asked).json()
    assert good["check"]["ok"] is True and good["check"]["skin"] == "aurora" and good["check"]["upstream"] == "capi"
    assert good["check"]["summary"] == "speaks the platform: 9/9 documented calls valid"
    assert [c["name"] for c in good["check"]["calls"]][:2] == ["homeBanners", "lobbyBanners"]

    bad = admin(product, "POST", "/admin/api/changes/preview", {**asked, "url": nginx}).json()
    assert bad["probe"]["ok"] is True, "nginx answers HTTP: the probe alone would have let it through"
    assert bad["check"]["ok"] is False and bad["check"]["summary"] == NOT_JSON
    failed = bad["check"]["calls"][0]
    assert (failed["name"], failed["status"], failed["why"]) == ("homeBanners", 200, "answered text/html, not JSON")

    own = admin(product, "POST", "/admin/api/changes/preview", {**asked, "url": product[1]}).json()["check"]
    assert own["ok"] is False and own["calls"][0]["status"] in (401, 404), "the gateway's admin listener is not it"


def test_applying_a_url_that_fails_the_check_needs_an_override_with_a_reason(
    product: tuple[Stack, str], nginx: str
) -> None:
    before = version(product)
    asked = {"skin": "aurora", "upstream": "capi", "url": nginx, "baseVersion": before, "reason": "the new CMS"}
    refused = admin(product, "POST", "/admin/api/changes", asked)
    assert refused.status_code == 422, refused.text
    [error] = refused.json()["errors"]
    assert (error["field"], error["code"]) == ("url", "CONTRACT_BROKEN")
    assert error["message"] == f"skins[aurora].upstreams.capi: {NOT_JSON}"
    assert version(product) == before and capi_url(product) != nginx
    entry = newest(product)
    assert entry["outcome"] == "refused" and entry["detail"]["contract"]["ok"] is False

    short = admin(product, "POST", "/admin/api/changes", {**asked, "override": {"reason": "no"}})
    assert [(e["field"], e["code"]) for e in short.json()["errors"]] == [("override.reason", "REASON_TOO_SHORT")]

    overridden = admin(product, "POST", "/admin/api/changes", {**asked, "override": {"reason": "banners move next"}})
    assert overridden.status_code == 200, overridden.text
    assert capi_url(product) == nginx
    entry = newest(product)
    assert entry["outcome"] == "ok" and entry["who"] == "deploy-bot" and entry["reason"] == "the new CMS"
    assert entry["after"] == nginx
    assert entry["detail"]["contract"] == {"ok": False, "checks": [NOT_JSON], "overridden": "banners move next"}

    # Back to the file's value (the sandbox): it speaks the platform, so no override is needed.
    back = admin(product, "DELETE", f"/admin/skins/aurora/upstreams/capi?baseVersion={version(product)}")
    assert back.status_code == 200, back.text
    assert newest(product)["detail"]["contract"] == {
        "ok": True,
        "checks": ["speaks the platform: 9/9 documented calls valid"],
    }


def test_the_bearer_api_and_rollbacks_go_the_same_way(product: tuple[Stack, str], nginx: str) -> None:
    start = version(product)
    dead = admin(product, "PUT", "/admin/skins/aurora/upstreams/sbapi", {"url": f"http://127.0.0.1:{free_port()}"})
    assert dead.json()["errors"][0]["code"] == "URL_UNREACHABLE", "what answers nothing breaks no contract"
    put = admin(product, "PUT", "/admin/skins/aurora/upstreams/sbapi", {"url": nginx})
    assert put.status_code == 422 and put.json()["errors"][0]["code"] == "CONTRACT_BROKEN"
    forced = admin(
        product, "PUT", "/admin/skins/aurora/upstreams/sbapi", {"url": nginx, "override": {"reason": "BTi maintenance"}}
    )
    assert forced.status_code == 200, forced.text
    moved = version(product)
    back = admin(product, "DELETE", f"/admin/skins/aurora/upstreams/sbapi?baseVersion={moved}")
    assert back.status_code == 200, back.text

    asked = {"to": moved, "baseVersion": version(product)}
    preview = admin(product, "POST", "/admin/api/rollback/preview", asked).json()
    assert [c["ok"] for c in preview["checks"]] == [False] and preview["checks"][0]["upstream"] == "sbapi"
    refused = admin(product, "POST", "/admin/api/rollback", {**asked, "reason": "back to maintenance"})
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "to"
    rolled = admin(
        product,
        "POST",
        "/admin/api/rollback",
        {**asked, "reason": "back to maintenance", "override": {"reason": "BTi maintenance again"}},
    )
    assert rolled.status_code == 200, rolled.text
    assert newest(product, "rollback")["detail"]["contract"]["overridden"] == "BTi maintenance again"
    admin(product, "DELETE", f"/admin/skins/aurora/upstreams/sbapi?baseVersion={version(product)}")
    assert version(product) == start, "back where it started"
