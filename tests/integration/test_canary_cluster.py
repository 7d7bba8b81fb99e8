"""Canaries on three gateway instances sharing one Redis, judged on real traffic: a canary to a
healthy second sandbox promotes itself through every step; one to a slow sandbox rolls itself back
within its first step, and at most about the step's share of the players signed in on it; no
player's deposits are ever split across the two platforms; and killing the controller's instance
with SIGKILL mid-step neither stops the canary nor moves a step twice."""

from __future__ import annotations

import contextlib
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import Cluster, Process, another_sandbox, given_redis, start_cluster
from tests.support.console import signed_in, write_operators

pytestmark = pytest.mark.redis

PASSWORD = "secret123"
PLAYERS = 60
PROVIDERS = "/api/agentAccount/getProviders"
DEPOSIT = {"paymentMethod": 300, "paymentType": "deposit", "currency": "INR", "amount": 1000}
QUICK = {"checkEveryS": 1, "minAnswers": 3, "failedChecks": 3}
"""Judged every second on a few answers: the steps below are seconds, not the defaults' minutes."""


@dataclass
class Site:
    cluster: Cluster
    new: Process
    """The canaries' new platform: a second sandbox with the same players."""
    live: list[int] = field(default_factory=lambda: [0, 1, 2])
    """The instances still running (the last test kills one)."""

    @property
    def old(self) -> Process:
        return self.cluster.sandbox


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp("canary-cluster")
    env = {"OPERATORS_FILE": str(write_operators(workdir / "operators.toml"))}
    cluster = start_cluster(workdir, instances=3, env=env, redis=given_redis(workdir))
    try:
        new = another_sandbox(workdir)
    except BaseException:
        cluster.stop()
        raise
    try:
        for platform, n in itertools.product((cluster.sandbox, new), range(PLAYERS * 3)):
            body = {"login": f"cc{n}", "password": PASSWORD, "cash": "100000"}
            httpx.post(f"{platform.url}/_sandbox/sites/aurora/players", json=body).raise_for_status()
        yield Site(cluster, new)
    finally:
        new.stop()
        cluster.stop()


def operator(site: Site) -> httpx.Client:
    return signed_in(site.cluster.admin_urls[site.live[-1]], "otto")


def start(ops: httpx.Client, site: Site, steps: list[tuple[float, float]], reason: str) -> dict[str, Any]:
    version = ops.get("/admin/status").json()["config"]["version"]
    body = {"skin": "aurora", "upstream": "api", "url": site.new.url, "baseVersion": version, "reason": reason}
    shaped = [{"share": share, "holdS": hold} for share, hold in steps]
    answer = ops.post("/admin/api/canaries", json={**body, "steps": shaped, "thresholds": QUICK})
    assert answer.status_code == 201, answer.text
    return dict(answer.json()["canary"])


def until(read: Callable[[], Any], check: Callable[[Any], bool], what: str, within_s: float) -> Any:
    deadline = time.monotonic() + within_s
    while not check(seen := read()):
        assert time.monotonic() < deadline, f"not within {within_s} s: {what} (last seen {seen})"
        time.sleep(0.2)
    return seen


def canary_of(ops: httpx.Client, canary_id: str) -> dict[str, Any]:
    return dict(ops.get(f"/admin/api/canaries/{canary_id}").json()["canary"])


def back_to_the_file(ops: httpx.Client) -> None:
    version = ops.get("/admin/status").json()["config"]["version"]
    body = {"skin": "aurora", "upstream": "api", "url": None, "baseVersion": version, "reason": "the next test"}
    answer = ops.post("/admin/api/changes", json=body)
    assert answer.status_code in (200, 422), answer.text  # 422 UNCHANGED: it was not promoted


def moves(ops: httpx.Client, action: str, canary_id: str) -> list[dict[str, Any]]:
    entries = ops.get("/admin/api/audit", params={"action": action}).json()["entries"]
    return [e for e in entries if (e.get("detail") or {}).get("canary") == canary_id]


class Traffic:
    """Players signing in one after another (each from its own address) and depositing, and
    visitors reading, on the live instances in turn, until stopped."""

    def __init__(self, site: Site, first: int) -> None:
        self.site = site
        self.logins = (f"cc{n}" for n in range(first, first + PLAYERS))
        self.players: list[tuple[str, Browser]] = []
        self.refused: list[dict[str, Any]] = []
        """Sign-ins the platform or the gateway refused (none expected)."""
        self.stopped = threading.Event()
        self.threads = [threading.Thread(target=self._players), threading.Thread(target=self._visitors)]

    def __enter__(self) -> Traffic:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopped.set()
        for thread in self.threads:
            thread.join(30)
        for _, browser in self.players:
            browser.close()

    def _browser(self, source: str | None = None) -> Browser:
        return Browser(*(g.url for g in self.site.cluster.gateways), source=source)

    def _players(self) -> None:
        for n in itertools.count():
            if self.stopped.is_set():
                return
            login = next(self.logins, None)
            if login is not None and n % 2 == 0:
                self._sign_in(login, on=self._on(n))
            for i, (_, browser) in enumerate(self.players[-8:]):
                key = {"Idempotency-Key": f"{n}-{i}-{time.time()}"}
                self._quietly(browser, "/api/cashier/buy", DEPOSIT, key, on=self._on(n + i))
            time.sleep(0.1)

    def _sign_in(self, login: str, on: int) -> None:
        try:
            browser = self._browser(f"127.0.41.{len(self.players) + 1}")
            answer = browser.attempt_login(login, PASSWORD, on=on).json()
        except httpx.HTTPError:  # an instance being killed: the next player signs in on another
            return
        if answer.get("success"):
            self.players.append((login, browser))
        else:
            self.refused.append(answer)

    def _visitors(self) -> None:
        browsers = [self._browser() for _ in range(20)]
        for n in itertools.count():
            if self.stopped.is_set():
                break
            self._quietly(browsers[n % 20], PROVIDERS, on=self._on(n))
            time.sleep(0.01)
        for browser in browsers:
            browser.close()

    def _on(self, n: int) -> int:
        live = self.site.live
        return live[n % len(live)]

    @staticmethod
    def _quietly(browser: Browser, path: str, *args: Any, on: int) -> None:
        with contextlib.suppress(httpx.HTTPError):  # an instance being killed: the next call goes to another
            browser.post(path, *args, on=on)

    def split_players(self) -> list[str]:
        """The players whose deposits landed on both platforms (there must be none)."""
        split = []
        for login, _ in self.players:
            counts = [deposits_on(platform, login) for platform in (self.site.old, self.site.new)]
            if all(counts):
                split.append(f"{login}: {counts}")
        return split

    def signed_in_on(self, platform: Process) -> int:
        return sum(1 for login, _ in self.players if sessions_on(platform, login) > 0)


def deposits_on(platform: Process, login: str) -> int:
    return len(httpx.get(f"{platform.url}/_sandbox/sites/aurora/players/{login}").json()["deposits"])


def sessions_on(platform: Process, login: str) -> int:
    return len(httpx.get(f"{platform.url}/_sandbox/sites/aurora/players/{login}").json()["sessionIds"])


def test_a_healthy_canary_promotes_itself_through_every_step(site: Site) -> None:
    ops = operator(site)
    with Traffic(site, first=0) as traffic:
        canary = start(ops, site, [(0.2, 2), (0.5, 2), (1.0, 2)], "the new wallet, proven")
        ended = until(lambda: canary_of(ops, canary["id"]), lambda c: c["state"] != "running", "an end", 60)
        time.sleep(1)  # deposits under way at the promotion land where they started
    said = (ended["endedReason"], traffic.refused, [(v["outcome"], v["reasons"], v["new"]) for v in ended["verdicts"]])
    assert (ended["state"], ended["endedBy"]) == ("promoted", "system"), said
    assert [v["step"] for v in ended["verdicts"] if v["outcome"] == "passed"][-1] == 2
    assert {v["step"] for v in ended["verdicts"] if v["outcome"] == "passed"} == {0, 1, 2}
    assert len(moves(ops, "canary-step", canary["id"])) == 2 and len(moves(ops, "canary-promote", canary["id"])) == 1
    for url in site.cluster.admin_urls:
        config = ops.get(url + "/admin/status").json()["config"]
        assert (config["version"], config["overrides"]["aurora"]["api"]) == (ended["promotedVersion"], site.new.url)
    assert traffic.split_players() == [], "a player's deposits split across platforms"
    assert traffic.signed_in_on(site.new) > 0
    took = ended["ended"] - ended["started"]
    print(f"promoted after {took:.1f} s, {len(ended['verdicts'])} checks, {len(traffic.players)} players signed in")
    back_to_the_file(ops)


def test_a_slow_canary_rolls_itself_back_within_its_first_step(site: Site) -> None:
    ops = operator(site)
    httpx.put(site.new.url + "/_sandbox/faults/*", json={"latencyMs": 800}).raise_for_status()
    try:
        with Traffic(site, first=PLAYERS) as traffic:
            canary = start(ops, site, [(0.2, 60), (1.0, 60)], "a slow platform")
            ended = until(lambda: canary_of(ops, canary["id"]), lambda c: c["state"] != "running", "an end", 60)
            time.sleep(2)  # more players sign in, on the old platform only now
    finally:
        httpx.delete(site.new.url + "/_sandbox/faults")
    assert (ended["state"], ended["step"]) == ("rolled-back", 0), ended
    assert ended["ended"] - ended["started"] < 60, "within the step's window"
    assert ended["endedReason"].startswith("p99 ") and ended["endedReason"].endswith("at 20 %, 3 checks")
    [rolled] = moves(ops, "canary-rollback", canary["id"])
    assert (rolled["who"], rolled["via"], rolled["reason"]) == ("system", "canary", ended["endedReason"])
    signed_in, on_new = len(traffic.players), traffic.signed_in_on(site.new)
    spread = 3 * math.sqrt(signed_in * 0.2 * 0.8)
    assert on_new <= 0.2 * signed_in + spread, f"{on_new} of {signed_in} players signed in on the new platform"
    took = ended["ended"] - ended["started"]
    print(
        f"rolled back after {took:.1f} s ({ended['endedReason']}); {on_new} of {signed_in} players on the new platform"
    )
    assert traffic.split_players() == []


def test_the_controllers_instance_killed_mid_step_neither_stops_nor_doubles_the_canary(site: Site) -> None:
    ops = operator(site)
    redis = site.cluster.redis.client()
    with Traffic(site, first=2 * PLAYERS):
        canary = start(ops, site, [(0.2, 3), (0.5, 4), (1.0, 3)], "a canary that outlives its controller")
        until(lambda: canary_of(ops, canary["id"]), lambda c: c["step"] == 1, "the second step", 30)
        token = until(lambda: redis.get("bff:canary-lease"), lambda t: t is not None, "a lease holder", 5).decode()
        pid = int(token.split(":")[1])  # the lease names its holder: host, process, a random part
        [holder] = [n for n, g in enumerate(site.cluster.gateways) if g.process is not None and g.process.pid == pid]
        site.live.remove(holder)
        if site.live[-1] == holder:
            ops = operator(site)
        site.cluster.gateways[holder].kill()  # SIGKILL: its lease is left to expire
        ops = operator(site)
        ended = until(lambda: canary_of(ops, canary["id"]), lambda c: c["state"] != "running", "an end", 60)
    assert ended["state"] == "promoted", ended
    steps = moves(ops, "canary-step", canary["id"])
    assert sorted(e["detail"]["step"] for e in steps) == [2, 3], "each step moved once"
    assert len(moves(ops, "canary-promote", canary["id"])) == 1
    print(f"instance {holder} killed at step 2; promoted {ended['ended'] - ended['started']:.1f} s after the start")
    taken_over = redis.get("bff:canary-lease")
    assert taken_over is None or taken_over.decode() != token
    back_to_the_file(ops)
