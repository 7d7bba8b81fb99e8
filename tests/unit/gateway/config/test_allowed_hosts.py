"""The allowed upstream hosts: what a pattern lets through (and what only looks like it), where a
deployment sets them, and that a change, a rollback or a kept override to any other host never
runs (docs/allowed-hosts.md)."""

from __future__ import annotations

import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from gateway.accounts.audit import AuditEntry, Query
from gateway.config import skins
from gateway.config.allowed_hosts import AllowedHosts, allows, host_pattern
from gateway.config.history import Author, FileVersions
from gateway.config.live import LiveConfig
from gateway.config.settings import Settings
from gateway.config.skins import SkinsFileError
from tests.support.console import Listener, admin_listener, bearer
from tests.support.gateway import ONE_SKIN, UPSTREAM

pytestmark = pytest.mark.anyio

SKIN = ONE_SKIN.format(api="http://api-1.test")
ANN = Author("ann", "console", "moving")
UNPROBED = {"probe": False, "override": {"reason": "made-up hosts: the list is what this test is about"}}


# --- patterns ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "url", "allowed"),
    [
        ("capi.example.com", "https://capi.example.com/v2", True),
        ("capi.example.com", "http://capi.example.com:8080", True),  # no port: any port
        ("capi.example.com", "https://CAPI.Example.COM.", True),  # the root's dot, upper case: the same name
        ("capi.example.com", "https://capi.example.com.evil.example", False),
        ("capi.example.com", "https://evil.example/capi.example.com", False),
        ("capi.example.com", "https://xcapi.example.com", False),
        ("*.platform.example", "https://wallet.platform.example", True),
        ("*.platform.example", "https://a.b.platform.example:9443", True),  # one or more labels
        ("*.platform.example", "https://platform.example", False),  # never the bare domain
        ("*.platform.example", "https://evilplatform.example", False),
        ("*.platform.example", "https://platform.example.evil.example", False),
        ("10.0.0.5:8443", "https://10.0.0.5:8443/api", True),
        ("10.0.0.5:8443", "https://10.0.0.5", False),  # 443 is not 8443
        ("10.0.0.5:8443", "http://[::ffff:10.0.0.5]:8443", True),  # IPv4-mapped: the address it reaches
        ("10.0.0.5", "http://10.0.0.50", False),
        ("capi.example.com:443", "https://capi.example.com", True),  # the scheme's default port
        ("[2001:db8::5]", "http://[2001:db8:0:0:0:0:0:5]:81", True),
        ("127.0.0.1", "http://2130706433", False),  # numeric forms are refused, never read as 127.0.0.1
        ("127.0.0.1", "http://0x7f.1", False),
        ("127.0.0.1", "http://017700000001", False),
        ("capi.example.com", "http://capi.example.com@evil.example", False),
        ("capi.example.com", "http://capi%2eexample.com", False),
        ("xn--pple-43d.example", "http://\u0430pple.example", False),  # the look-alike is refused, not encoded
    ],
)
def test_a_pattern_allows_its_hosts_and_nothing_that_looks_like_them(pattern: str, url: str, allowed: bool) -> None:
    assert allows([host_pattern(pattern)], url) is allowed


@pytest.mark.parametrize(
    "given",
    ["*", "*.", "capi.example/v2", "user@capi.example", "capi.example:0", "*.10.0.0.5", "0x7f.1", "bücher.example"],
)
def test_what_is_not_a_pattern_is_refused(given: str) -> None:
    with pytest.raises(ValueError, match="BFF_ALLOWED_HOSTS"):
        AllowedHosts.parse(f"aurora={given}")


def test_the_environment_names_hosts_per_skin_and_for_every_skin() -> None:
    allowed = AllowedHosts.parse(" aurora = *.platform.example, capi.example.com ; *=10.0.0.5:8443;pampa=")
    assert [str(p) for p in allowed.of("aurora", ["http://127.0.0.1:8001"])] == [
        "127.0.0.1:8001",
        "10.0.0.5:8443",
        "*.platform.example",
        "capi.example.com",
    ]
    assert [str(p) for p in allowed.of("pampa", [])] == ["10.0.0.5:8443"]
    env = {"BFF_ALLOWED_HOSTS": "aurora:capi.example.com"}
    with pytest.raises(ValueError, match="BFF_ALLOWED_HOSTS"):
        Settings.from_env(env)
    assert Settings.from_env({}).allowed_hosts == AllowedHosts(), "nothing set: a skin's own hosts only"


def test_the_skins_file_names_hosts_for_every_skin_and_per_skin() -> None:
    data: dict[str, Any] = tomllib.loads(SKIN)
    data["allowed_hosts"] = ["*.shared.example"]
    data["skins"][0]["allowed_hosts"] = ["wallet.example:8443"]
    allowed = skins.parse(data).allowed(AllowedHosts.parse("*=10.0.0.5"))
    assert [str(p) for p in allowed.of("aurora", [])] == ["10.0.0.5", "*.shared.example", "wallet.example:8443"]
    data["skins"][0]["allowed_hosts"] = ["wallet.example/x"]
    with pytest.raises(SkinsFileError, match=r"skins\[aurora\]\.allowed_hosts"):
        skins.parse(data)


# --- kept overrides ---------------------------------------------------------------------


async def test_a_kept_override_to_a_host_no_longer_allowed_is_not_applied_and_says_so(tmp_path: Path) -> None:
    skins_file, kept = tmp_path / "skins.toml", tmp_path / "history.jsonl"
    skins_file.write_text(SKIN)
    wide = AllowedHosts.parse("aurora=*.test,*.evil.example")
    first = LiveConfig(skins_file, lambda: skins.builtin(UPSTREAM), versions=FileVersions(kept), allowed=wide)
    await first.start()
    two = {"aurora": {"api": "http://wallet.evil.example", "capi": "http://capi-2.test"}}
    made = await first.commit(lambda _: two, base=None, author=Author("ann", "console", "moving"))
    assert made.result == "applied" and first.skins.all[0].upstreams.api == "http://wallet.evil.example"

    narrow = AllowedHosts.parse("aurora=*.test")  # the deployment narrowed its list, then restarted
    restarted = LiveConfig(skins_file, lambda: skins.builtin(UPSTREAM), versions=FileVersions(kept), allowed=narrow)
    await restarted.start()
    upstreams = restarted.skins.all[0].upstreams
    assert upstreams.api == "http://api-1.test", "the skins file's wallet, not the one no longer allowed"
    assert upstreams.capi == "http://capi-2.test", "the other override still applies"
    error = restarted.describe()["error"]
    assert error == "aurora.api=http://wallet.evil.example is not applied: its host is not allowed for aurora"

    again = await restarted.commit(
        lambda o: {**o, "aurora": {**o["aurora"], "rest": "http://rest-2.test"}},
        base=None,
        author=Author("ann", "console", "the rest too"),
    )
    assert again.result == "applied" and restarted.describe()["error"] == error, "still said, still not applied"
    refused = await restarted.commit(
        lambda o: {**o, "aurora": {**o["aurora"], "sbapi": "http://other.example"}},
        base=None,
        author=Author("ann", "console", "a change the console's check would have refused"),
    )
    assert refused.result == "invalid" and refused.error == (
        "aurora.sbapi=http://other.example is not applied: its host is not allowed for aurora"
    ), "a commit never makes a version whose own change would not run"
    gone = await restarted.commit(lambda o: {**o, "pampa": {"api": "http://other.example"}}, base=None, author=ANN)
    assert gone.result == "applied" and restarted.describe()["error"] == error, "a skin the file lacks: nothing to say"


# --- the console and the bearer API ------------------------------------------------------


@pytest.fixture
async def listener(tmp_path: Path) -> AsyncIterator[Listener]:
    skins_file = tmp_path / "skins.toml"
    skins_file.write_text(SKIN)
    allowed = AllowedHosts.parse("aurora=*.platform.test")
    async with admin_listener(tmp_path, skins_file=skins_file, allowed_hosts=allowed) as running:
        yield running


async def refusals(listener: Listener) -> list[AuditEntry]:
    return [
        e for e in (await listener.audit.page(Query(frozenset({"change", "rollback"}))))[0] if e.outcome == "refused"
    ]


def field_codes(answer: Any) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in answer.json()["errors"]]


async def test_a_change_to_a_host_outside_the_list_is_refused_on_every_path(listener: Listener) -> None:
    config = listener.app.gateway.config
    before = config.version
    otto = await listener.signed_in("otto")
    shown = (await otto.call("GET", "/admin/api/overview")).json()["skins"][0]["allowedHosts"]
    assert shown == ["api-1.test:80", "capi.test:80", "sbapi.test:80", "rest.test:80", "*.platform.test"]
    asked = {"skin": "aurora", "upstream": "api", "baseVersion": before, "reason": "the new wallet"}
    for url in ("http://wallet.evil.example", "http://platform.test", "http://wallet.platform.test@evil.example"):
        preview = await otto.call("POST", "/admin/api/changes/preview", json={**asked, "url": url})
        assert preview.status_code == 422, url
    preview = await otto.call("POST", "/admin/api/changes/preview", json={**asked, "url": "http://wallet.evil.example"})
    assert field_codes(preview) == [("url", "URL_HOST_NOT_ALLOWED")]
    applied = await otto.call("POST", "/admin/api/changes", json={**asked, "url": "http://0x7f.1"})
    assert field_codes(applied) == [("url", "URL_HOST_FORM")]
    api = listener.browser("10.0.0.9")
    put = await api.http.put(
        "/admin/skins/aurora/upstreams/capi", json={"url": "http://cms.evil.example"}, headers=bearer("deploy-bot")
    )
    assert put.status_code == 422 and field_codes(put) == [("url", "URL_HOST_NOT_ALLOWED")]
    assert config.version == before and config.skins.all[0].upstreams.capi == "http://capi.test", "nothing changed"
    refused = await refusals(listener)
    assert [(e.who, e.target, e.detail["errors"][0]["code"], "preview" in e.detail) for e in refused] == [
        ("deploy-bot", "capi", "URL_HOST_NOT_ALLOWED", False),
        ("otto", "api", "URL_HOST_FORM", False),
        *[("otto", "api", "URL_HOST_NOT_ALLOWED", True)] * 3,
    ], "each attempt at a host not allowed is in the trail as refused, a preview's too (it says so)"

    put = await api.http.put(
        "/admin/skins/aurora/upstreams/capi",
        json={"url": "http://cms.platform.test", **UNPROBED},
        headers=bearer("deploy-bot"),
    )
    assert put.status_code == 200, put.text
    assert config.skins.all[0].upstreams.capi == "http://cms.platform.test"


async def test_a_rollback_to_a_version_whose_host_is_no_longer_allowed_is_refused(listener: Listener) -> None:
    config = listener.app.gateway.config
    api = listener.browser("10.0.0.9")
    moved = {"url": "http://cms.platform.test", **UNPROBED}
    put = await api.http.put("/admin/skins/aurora/upstreams/capi", json=moved, headers=bearer("deploy-bot"))
    assert put.status_code == 200, put.text
    old = put.json()["version"]
    back = await api.http.delete("/admin/skins/aurora/upstreams/capi", headers=bearer("deploy-bot"))
    assert back.status_code == 200, back.text
    config.allowed = AllowedHosts()  # as after a restart with the list narrowed
    now = config.version
    otto = await listener.signed_in("otto")
    asked = {"to": old, "baseVersion": now, "reason": "back to the new CMS"}
    rollback = await otto.call("POST", "/admin/api/rollback", json=asked)
    assert rollback.status_code == 422 and field_codes(rollback) == [("to", "URL_HOST_NOT_ALLOWED")]
    assert config.version == now
    assert [e.action for e in await refusals(listener)] == ["rollback"]


async def test_a_file_that_narrows_its_list_stops_an_override_at_once_and_it_can_be_cleared(tmp_path: Path) -> None:
    skins_file = tmp_path / "skins.toml"
    wide = SKIN.replace('currency = "INR"', 'currency = "INR"\nallowed_hosts = ["*.platform.test"]')
    skins_file.write_text(wide)
    async with admin_listener(tmp_path, skins_file=skins_file, allowed_hosts=AllowedHosts()) as listener:
        config, api = listener.app.gateway.config, listener.browser("10.0.0.9")
        moved = {"url": "http://cms.platform.test", **UNPROBED}
        put = await api.http.put("/admin/skins/aurora/upstreams/capi", json=moved, headers=bearer("deploy-bot"))
        assert put.status_code == 200, put.text
        skins_file.write_text(SKIN)  # the deployment takes *.platform.test off the list
        assert (await config.reload("file changed")).result == "applied"
        assert config.skins.all[0].upstreams.capi == "http://capi.test", "the file's value runs again, at once"
        status = (await api.http.get("/admin/status", headers=bearer("deploy-bot"))).json()
        assert "aurora.capi=http://cms.platform.test is not applied" in status["config"]["error"]

        cleared = await api.http.delete("/admin/skins/aurora/upstreams/capi", headers=bearer("deploy-bot"))
        assert cleared.status_code == 200, cleared.text
        assert config.current.overrides == {} and config.error is None, "gone, and so is the error"
        again = await api.http.delete("/admin/skins/aurora/upstreams/capi", headers=bearer("deploy-bot"))
        assert [e["code"] for e in again.json()["errors"]] == ["UNCHANGED"]
