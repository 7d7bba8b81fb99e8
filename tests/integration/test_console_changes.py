"""The console's configuration changes on three gateway instances sharing one real Redis, as
operators run them: a change applied through one instance is live on all three and the answer
says so; an instance that cannot acknowledge (paused with SIGSTOP) is named; two operators
changing the same upstream from the same version get one success and one conflict with what
changed; a rollback puts every instance back; bad changes change nothing; a viewer changes
nothing at all; the history and the charts' figures outlive a restart and add up over instances."""

from __future__ import annotations

import asyncio
import concurrent.futures
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.accounts.operators import token_digest
from tests.support.browser import Browser
from tests.support.cluster import TALLY, Cluster
from tests.support.fixtures import cluster_running
from tests.support.rawhttp import exchange

pytestmark = pytest.mark.redis

TOKENS = {
    "alice": ("operator", "alice-token-0123456789abcdef"),
    "bob": ("operator", "bob-token-0123456789abcdef"),
    "vic": ("viewer", "vic-token-0123456789abcdefgh"),
}


def operators_file(path: Path) -> Path:
    path.write_text(
        "".join(
            f'[[tokens]]\nname = "{name}"\nrole = "{role}"\ntoken_sha256 = "{token_digest(token)}"\n\n'
            for name, (role, token) in TOKENS.items()
        )
    )
    return path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    workdir = tmp_path_factory.mktemp("console-changes")
    env = {"OPERATORS_FILE": str(operators_file(workdir / "operators.toml")), "AUDIT_FILE": str(workdir / "audit")}
    never = [token for _, token in TOKENS.values()]
    with cluster_running(workdir, env=env, extra_skins=TALLY, never=never) as running:
        yield running
        for gateway in running.gateways:  # a test that failed while one was paused leaves it paused
            if gateway.process is not None and gateway.process.poll() is None:
                gateway.process.send_signal(signal.SIGCONT)


def call(cluster: Cluster, instance: int, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {TOKENS[who][1]}"}
    return httpx.request(method, cluster.admin_urls[instance] + path, json=body, headers=headers, timeout=20)


def get(cluster: Cluster, instance: int, who: str, path: str) -> Any:
    answer = call(cluster, instance, who, "GET", path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def post(cluster: Cluster, instance: int, who: str, path: str, body: Any) -> httpx.Response:
    return call(cluster, instance, who, "POST", path, body)


def versions(cluster: Cluster) -> list[str]:
    return [get(cluster, n, "vic", "/admin/api/instances")["current"] for n in range(3)]


def settled(cluster: Cluster) -> str:
    """The version every instance runs (they follow each other within a second)."""
    deadline = time.monotonic() + 5
    while len(set(running := versions(cluster))) != 1:
        assert time.monotonic() < deadline, f"instances disagree: {running}"
        time.sleep(0.1)
    return running[0]


def capi_of(cluster: Cluster, instance: int) -> str:
    skins = get(cluster, instance, "vic", "/admin/api/overview")["skins"]
    return next(u["url"] for s in skins if s["id"] == "aurora" for u in s["upstreams"] if u["name"] == "capi")


def other_url(cluster: Cluster) -> str:
    """The sandbox under another name: a base URL that answers and differs from the file's."""
    return cluster.sandbox.url.replace("127.0.0.1", "localhost")


OVERRIDE = {"reason": "the sandbox under a path: versions are what these tests are about"}
"""The sandbox under a path prefix answers 404: these changes override the platform's check
(tests/integration/test_console_contract.py is about it)."""


def change(
    cluster: Cluster,
    instance: int,
    who: str,
    url: str | None,
    base: str,
    reason: str = "moving capi",
    skin: str = "aurora",
) -> Any:
    body = {
        "skin": skin,
        "upstream": "capi",
        "url": url,
        "baseVersion": base,
        "reason": reason,
        "override": OVERRIDE,
    }
    return post(cluster, instance, who, "/admin/api/changes", body)


def test_a_change_applied_through_one_instance_is_live_on_all_three(cluster: Cluster) -> None:
    base = settled(cluster)
    asked = {"skin": "aurora", "upstream": "capi", "url": other_url(cluster), "baseVersion": base}
    preview = post(cluster, 0, "alice", "/admin/api/changes/preview", asked)
    assert preview.status_code == 200, preview.text
    seen = preview.json()
    assert seen["stale"] is False and seen["current"] == base
    assert seen["changes"] == [
        {"skin": "aurora", "upstream": "capi", "before": cluster.sandbox.url, "after": other_url(cluster)}
    ]
    assert seen["probe"]["ok"] is True and isinstance(seen["probe"]["status"], int) and seen["probe"]["tls"] is None
    assert seen["probe"]["latencyMs"] > 0
    assert versions(cluster) == [base] * 3, "a preview changes nothing"

    applied = change(cluster, 0, "alice", other_url(cluster), base, "capi behind the new name")
    assert applied.status_code == 200, applied.text
    made = applied.json()
    assert made["live"]["acknowledged"] == 3 and made["live"]["total"] == 3 and made["live"]["missing"] == []
    assert made["previous"] == base and made["version"] != base
    assert versions(cluster) == [made["version"]] * 3
    assert {capi_of(cluster, n) for n in range(3)} == {other_url(cluster)}
    listed = get(cluster, 2, "vic", "/admin/api/instances")
    assert len(listed["instances"]) == 3 and all(i["sameVersion"] for i in listed["instances"])
    assert {i["pid"] for i in listed["instances"]} == {g.process.pid for g in cluster.gateways if g.process}
    newest = get(cluster, 1, "vic", "/admin/api/history?limit=1")["versions"][0]
    assert (newest["version"], newest["who"], newest["via"], newest["action"]) == (
        made["version"],
        "alice",
        "token",
        "change",
    )
    assert newest["reason"] == "capi behind the new name" and newest["changes"] == made["changes"]
    trail = get(cluster, 2, "vic", "/admin/api/audit?action=change")["entries"]
    assert any(e["who"] == "alice" and e["outcome"] == "ok" and e["after"] == other_url(cluster) for e in trail)


def test_an_instance_that_does_not_acknowledge_is_named(cluster: Cluster) -> None:
    base = settled(cluster)
    paused = cluster.gateways[2]
    paused_id = get(cluster, 2, "vic", "/admin/api/instances")["instances"][0]["id"]
    assert paused.process is not None
    paused.process.send_signal(signal.SIGSTOP)
    try:
        answer = change(cluster, 0, "bob", cluster.sandbox.url + "/", base, "back to the file's capi")
    finally:
        paused.process.send_signal(signal.SIGCONT)
    assert answer.status_code == 200, answer.text
    live = answer.json()["live"]
    assert (live["acknowledged"], live["total"]) == (2, 3) and [m["id"] for m in live["missing"]] == [paused_id]
    assert 4.5 <= live["waitedS"] < 8, "it waited its few seconds, no more"
    assert settled(cluster) == answer.json()["version"], "the paused instance catches up once it runs again"


def test_two_changes_from_the_same_version_make_one_success_and_one_conflict(cluster: Cluster) -> None:
    base = settled(cluster)
    urls = {"alice": other_url(cluster) + "/alice", "bob": other_url(cluster) + "/bob"}
    start = threading.Barrier(2)

    def apply(who: str, instance: int) -> httpx.Response:
        start.wait()
        return change(cluster, instance, who, urls[who], base, f"{who} moves capi")

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(apply, ["alice", "bob"], [0, 1]))
    assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
    won, lost = sorted(answers, key=lambda a: a.status_code)
    conflict = lost.json()
    assert conflict["code"] == "VERSION_CONFLICT" and conflict["current"] == won.json()["version"]
    winner = next(who for who, url in urls.items() if url == won.json()["changes"][0]["after"])
    assert [blamed(c) for c in conflict["changes"]] == [{**c, "who": winner} for c in won.json()["changes"]]
    assert conflict["skins"] == ["aurora"] and conflict["message"].startswith(f"{winner} changed aurora's capi to ")
    assert settled(cluster) == won.json()["version"] and capi_of(cluster, 1) == urls[winner]
    newest = get(cluster, 0, "vic", "/admin/api/history?limit=1")["versions"][0]
    assert (newest["who"], newest["previous"], newest["version"]) == (winner, base, won.json()["version"])


def blamed(change: dict[str, Any]) -> dict[str, Any]:
    """A conflict's change as the winner's answer has it, and who made it."""
    assert change["at"].endswith("Z") and change["via"] == "token" and change["action"] == "change"
    return {key: change[key] for key in ("skin", "upstream", "before", "after", "who")}


def test_two_operators_changing_two_skins_from_one_version_both_succeed(cluster: Cluster) -> None:
    base = settled(cluster)
    start = threading.Barrier(2)

    def apply(who: str, skin: str, instance: int) -> httpx.Response:
        start.wait()
        return change(cluster, instance, who, other_url(cluster) + f"/{who}-{skin}", base, f"{who} moves {skin}", skin)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(apply, ["alice", "bob"], ["aurora", "tally"], [0, 1]))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    now = settled(cluster)
    skins = {s["id"]: s for s in get(cluster, 2, "vic", "/admin/api/overview")["skins"]}
    capi = {
        skin: next(u["url"] for u in skins[skin]["upstreams"] if u["name"] == "capi") for skin in ("aurora", "tally")
    }
    assert capi == {"aurora": other_url(cluster) + "/alice-aurora", "tally": other_url(cluster) + "/bob-tally"}
    assert now in {a.json()["version"] for a in answers}, "one configuration version, both changes in it"
    preview = {"skin": "tally", "upstream": "capi", "url": None, "baseVersion": base}
    assert post(cluster, 1, "alice", "/admin/api/changes/preview", preview).json()["stale"] is True


def test_a_rollback_restores_the_earlier_overrides_everywhere(cluster: Cluster) -> None:
    first = get(cluster, 0, "vic", "/admin/api/history?limit=500")["versions"][-1]
    base = settled(cluster)
    asked = {"to": first["version"], "baseVersion": base}
    preview = post(cluster, 1, "alice", "/admin/api/rollback/preview", asked)
    assert preview.status_code == 200, preview.text
    assert preview.json()["fileDiffers"] is False and all(p["ok"] for p in preview.json()["probes"])
    rolled = post(
        cluster, 1, "alice", "/admin/api/rollback", {**asked, "reason": "back to the start", "override": OVERRIDE}
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["version"] == first["version"] and rolled.json()["live"]["acknowledged"] == 3
    for n in range(3):
        status = get(cluster, n, "vic", "/admin/status")
        assert status["config"]["version"] == first["version"] and status["config"]["overrides"] == {}
    newest = get(cluster, 2, "vic", "/admin/api/history?limit=1")["versions"][0]
    assert newest["action"] == "rollback" and newest["who"] == "alice" and newest["reason"] == "back to the start"
    again = post(cluster, 1, "alice", "/admin/api/rollback", {"to": base, "baseVersion": base, "reason": "undo it"})
    assert again.status_code == 409, "the version it was made from is not current any more"


def test_bad_changes_are_refused_field_by_field_and_change_nothing(cluster: Cluster) -> None:
    base = settled(cluster)
    history = len(get(cluster, 0, "vic", "/admin/api/history?limit=500")["versions"])
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"url": "ftp://capi.example"}, "url", "URL_SCHEME"),
        ({"url": "http://capi.example/base?x=1"}, "url", "URL_HAS_PATH_QUERY"),
        ({"url": "http://"}, "url", "URL_INVALID"),
        ({"url": "http://capi.example/../.."}, "url", "URL_PATH"),
        ({"url": "http://user:pass@capi.example"}, "url", "URL_CREDENTIALS"),
        ({"url": "http:\\\\capi.example"}, "url", "URL_INVALID"),
        ({"url": "http://127.0.0.1:1"}, "url", "URL_UNREACHABLE"),
        ({"skin": "nope"}, "skin", "UNKNOWN_SKIN"),
        ({"upstream": "wallet"}, "upstream", "UNKNOWN_UPSTREAM"),
        ({"reason": "x"}, "reason", "REASON_TOO_SHORT"),
        ({"url": capi_of(cluster, 0)}, "url", "UNCHANGED"),
        ({"baseVersion": "0123456789ab"}, "baseVersion", "UNKNOWN_VERSION"),
    ]
    for fields, field, code in cases:
        body = {
            "skin": "aurora",
            "upstream": "capi",
            "url": other_url(cluster) + "/v2",
            "baseVersion": base,
            "reason": "a bad change",
            "override": OVERRIDE,
            **fields,
        }
        answer = post(cluster, 1, "alice", "/admin/api/changes", body)
        assert answer.status_code == 422, (fields, answer.text)
        assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [(field, code)], answer.text
    unreachable = {"skin": "aurora", "upstream": "capi", "url": "http://127.0.0.1:1", "baseVersion": base}
    probed = post(cluster, 0, "alice", "/admin/api/changes/preview", unreachable).json()["probe"]
    assert probed["ok"] is False and probed["status"] is None and probed["error"]
    shouted = {**unreachable, "url": other_url(cluster).upper() + "/V2/"}
    normalised = post(cluster, 0, "alice", "/admin/api/changes/preview", shouted).json()["changes"][0]["after"]
    assert normalised == other_url(cluster) + "/V2", "scheme and host lower-cased, the trailing slash dropped"
    assert versions(cluster) == [base] * 3
    assert len(get(cluster, 0, "vic", "/admin/api/history?limit=500")["versions"]) == history


def test_a_stale_version_is_a_conflict_that_changes_nothing(cluster: Cluster) -> None:
    base = settled(cluster)
    moved = change(cluster, 0, "alice", other_url(cluster) + "/stale-test", base)
    assert moved.status_code == 200, moved.text
    stale = change(cluster, 2, "bob", other_url(cluster) + "/bob", base)
    assert stale.status_code == 409
    assert [blamed(c) for c in stale.json()["changes"]] == [{**c, "who": "alice"} for c in moved.json()["changes"]]
    preview = post(
        cluster,
        1,
        "bob",
        "/admin/api/changes/preview",
        {"skin": "aurora", "upstream": "capi", "url": None, "baseVersion": base},
    )
    assert preview.json()["stale"] is True
    assert versions(cluster) == [moved.json()["version"]] * 3


def test_a_viewer_is_refused_every_write(cluster: Cluster) -> None:
    base = settled(cluster)
    back = {"skin": "aurora", "upstream": "capi", "url": None, "baseVersion": base}
    writes: list[tuple[str, str, Any]] = [
        ("POST", "/admin/api/changes/preview", back),
        ("POST", "/admin/api/changes", {**back, "reason": "viewer tries"}),
        ("POST", "/admin/api/rollback/preview", {"to": base, "baseVersion": base}),
        ("POST", "/admin/api/rollback", {"to": base, "baseVersion": base, "reason": "viewer tries"}),
        ("POST", "/admin/api/skins/aurora/cache/purge", {"reason": "viewer tries"}),
        ("POST", "/admin/api/skins/aurora/players/demo1/revoke", {"reason": "viewer tries"}),
        ("POST", "/admin/skins/aurora/cache/purge", None),
        ("POST", "/admin/skins/aurora/players/demo1/revoke", None),
        ("PUT", "/admin/skins/aurora/upstreams/capi", {"url": other_url(cluster)}),
        ("DELETE", "/admin/skins/aurora/upstreams/capi", None),
        ("POST", "/admin/reload", None),
    ]
    for method, path, body in writes:
        answer = call(cluster, 0, "vic", method, path, body)
        assert answer.status_code == 403 and answer.json()["code"] == "FORBIDDEN", (path, answer.text)
        assert answer.json()["needs"] == "operator"
    assert versions(cluster) == [base] * 3


def test_purge_and_revoke_need_a_reason_and_are_audited(cluster: Cluster) -> None:
    short = post(cluster, 0, "alice", "/admin/api/skins/aurora/cache/purge", {"reason": "no"})
    assert short.status_code == 422 and short.json()["errors"][0]["code"] == "REASON_TOO_SHORT"
    purged = post(cluster, 0, "alice", "/admin/api/skins/aurora/cache/purge", {"reason": "stale banners"})
    assert purged.status_code == 200 and set(purged.json()["purged"]) == {"local", "shared"}
    revoked = post(cluster, 1, "bob", "/admin/api/skins/aurora/players/demo1/revoke", {"reason": "lost phone"})
    assert revoked.status_code == 200 and revoked.json()["login"] == "demo1"
    unknown = post(cluster, 1, "bob", "/admin/api/skins/nope/players/demo1/revoke", {"reason": "lost phone"})
    assert unknown.status_code == 404
    trail = get(cluster, 2, "vic", "/admin/api/audit")["entries"]
    assert any(e["action"] == "purge" and e["who"] == "alice" and e["reason"] == "stale banners" for e in trail)
    assert any(e["action"] == "revoke" and e["target"] == "demo1" and e["reason"] == "lost phone" for e in trail)


def test_a_revoked_player_is_refused_a_new_sign_in_on_every_instance(cluster: Cluster) -> None:
    player = Browser.on(cluster)
    player.login("nocash", "nocash123", on=0)
    reason = {"reason": "account taken over"}
    revoked = post(cluster, 1, "bob", "/admin/api/skins/aurora/players/NoCash/revoke", reason).json()
    assert (revoked["sessionsEnded"], revoked["found"]) == (1, True) and revoked["blockedUntil"].endswith("Z")
    for instance in (0, 2):
        again = player.attempt_login("nocash", "nocash123", on=instance)
        assert again.status_code == 403 and again.json()["code"] == "SIGN_IN_BLOCKED", again.text
        assert 0 < int(again.headers["retry-after"]) <= 900
    mistyped = post(cluster, 2, "bob", "/admin/api/skins/aurora/players/nocsah/revoke", reason).json()
    assert (mistyped["sessionsEnded"], mistyped["found"]) == (0, False), "a mistyped login finds no session"
    player.close()


def load(cluster: Cluster, counts: list[int]) -> None:
    """`counts[n]` content reads of the tally skin on instance n, all at once."""

    async def burst() -> list[int]:
        async def one(instance: int, n: int) -> int:
            url, source = cluster.gateways[instance].url, f"127.0.40.{n % 200 + 1}"
            answer = await exchange(url, source, "GET", f"/capi/home-banners?n={n % 4}", {"host": "tally.localhost"})
            return answer.status

        return list(await asyncio.gather(*(one(i, n) for i, count in enumerate(counts) for n in range(count))))

    assert set(asyncio.run(burst())) == {200}


def tally(cluster: Cluster, instance: int) -> dict[str, Any]:
    figures: dict[str, Any] = get(cluster, instance, "vic", "/admin/api/series?minutes=60")
    assert figures["scope"] == "cluster" and figures["stepS"] == 10
    return dict(figures["skins"]["tally"])


def test_the_charts_figures_move_under_load_and_are_the_sum_over_instances(cluster: Cluster) -> None:
    before = sum(tally(cluster, 0)["requests"])
    load(cluster, [120, 180, 240])
    time.sleep(1.0)  # each instance writes its counts a quarter second after its first uncounted request
    after = tally(cluster, 1)
    assert sum(after["requests"]) - before == 540, "every request on every instance, counted once"
    busy = [n for n, r in enumerate(after["requests"]) if r]
    assert busy and all(after["rps"][n] > 0 and after["p95Ms"][n] is not None for n in busy)
    assert all(after["errorRate"][n] == 0 for n in busy) and all(0 < after["cacheHitRatio"][n] <= 1 for n in busy)
    quiet = [n for n, r in enumerate(after["requests"]) if not r]
    assert all(after["rps"][n] == 0 and after["p95Ms"][n] is None for n in quiet)
    assert len(after["t"]) == 360 and after["t"] == sorted(after["t"])


def test_history_and_the_charts_outlive_a_restart(cluster: Cluster) -> None:
    history = get(cluster, 0, "vic", "/admin/api/history?limit=500")["versions"]
    counted = sum(tally(cluster, 0)["requests"])
    gateway = cluster.gateways[1]
    gateway.terminate(within_s=15)
    gateway.start("/bff/health")
    kept = get(cluster, 1, "vic", "/admin/api/history?limit=500")["versions"]
    assert kept[-len(history) :] == history or kept == history, "every version is still there"
    assert sum(tally(cluster, 1)["requests"]) >= counted
    assert settled(cluster) == history[0]["version"], "the restarted instance runs the cluster's version"
