"""Three gateway instances on one real Redis, attacked as the world would: guesses at one
account from hundreds of addresses at once, on every instance, some from the attacker's own
logged-in session; session ids guessed through the adoption call; thousands of visitors from
many addresses; and a platform that marks its answers private. Only 127.0.0.1 and ::1 are
trusted proxies, so every other 127.0.0.0/8 source address is a client of its own."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from pathlib import Path

import httpx
import pytest

from tests.support.browser import Browser
from tests.support.cluster import Cluster
from tests.support.fixtures import cluster_fixture, sandbox_url_fixture, upstream_calls
from tests.support.rawhttp import exchange

pytestmark = pytest.mark.redis
JSON = {"content-type": "application/json"}


cluster = cluster_fixture("abuse", never=["guessed-sid"])  # no session id it was given
sandbox_url = sandbox_url_fixture("cluster")


async def visit(url: str, source: str) -> dict[str, str]:
    """A new browser's first call: its session and XSRF cookies."""
    answer = await exchange(url, source, "GET", "/bff/session", {})
    return {name: value for name in ("bff", "XSRF-TOKEN") if (value := answer.cookie(name)) is not None}


async def post_as(url: str, source: str, cookies: dict[str, str], path: str, body: bytes) -> int:
    headers = {
        **JSON,
        "cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "x-xsrf-token": cookies.get("XSRF-TOKEN", ""),
    }
    return (await exchange(url, source, "POST", path, headers, body)).status


def test_guesses_at_one_account_reach_the_platform_at_most_its_allowance(
    cluster: Cluster, control: httpx.Client
) -> None:
    """Seen from outside: 200 guesses at once from one address let 20 reach the platform, from
    200 addresses all 200, and guesses from the attacker's own session were not counted; right
    after, the owner's correct password got 429."""
    control.post("/_sandbox/sites/aurora/players", json={"login": "victim01", "password": "owner-pass-1"})
    control.post("/_sandbox/sites/aurora/players", json={"login": "mallory1", "password": "mallory-pass"})
    owner = Browser.on(cluster, "127.0.40.250")
    assert owner.attempt_login("victim01", "owner-pass-1").json()["success"] is True
    owner.post("/api/player/logout", on=0)
    attacker = Browser.on(cluster, "127.0.40.251")
    assert attacker.attempt_login("mallory1", "mallory-pass", on=1).json()["success"] is True
    logged_in = dict(attacker.http.cookies.items())
    control.delete("/_sandbox/calls")

    async def attack() -> list[int]:
        async def guess(n: int) -> int:
            url, source = cluster.gateways[n % 3].url, f"127.0.{41 + n // 200}.{n % 200 + 1}"
            cookies = logged_in if n % 10 == 0 else await visit(url, source)
            body = b'{"login":"Victim01","password":"guess-%d"}' % n
            return await post_as(url, source, cookies, "/api/player/login", body)

        return list(await asyncio.gather(*(guess(n) for n in range(200))))

    statuses = asyncio.run(attack())
    reached = upstream_calls(control, "login")
    print(f"200 concurrent guesses from 200 addresses on 3 instances: {reached} reached the platform")
    assert reached <= 8, f"{reached} guesses reached the platform"
    assert statuses.count(200) == reached and set(statuses) <= {200, 409, 429}, "the rest were refused unsent"
    stranger = Browser.on(cluster, "127.0.40.252")
    locked = stranger.attempt_login("victim01", "owner-pass-1", on=2)
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0
    back = owner.attempt_login("victim01", "owner-pass-1", on=2)
    assert back.status_code == 200 and back.json()["success"] is True, "the owner's own browser still gets in"
    for browser in (owner, attacker, stranger):
        browser.close()


def test_guessing_session_ids_through_adoption_is_limited_and_logged_without_them(
    cluster: Cluster, control: httpx.Client
) -> None:
    guesser = Browser.on(cluster, "127.0.42.1")
    answers = [guesser.post("/bff/session/adopt", {"sid": f"guessed-sid-{n:06d}"}, on=n % 3) for n in range(12)]
    guesser.close()
    assert [a.status_code for a in answers[:5]] == [401] * 5
    assert {a.status_code for a in answers[5:]} == {429}
    assert upstream_calls(control, "getProfile") == 5, "only the allowance was asked of the platform"
    logs = "".join(Path(g.log).read_text() for g in cluster.gateways)
    assert logs.count('"session.adopt_refused"') == 5 and '"session.adopt_limited"' in logs


def test_a_flood_of_visitors_neither_fills_redis_nor_slows_players(cluster: Cluster, control: httpx.Client) -> None:
    """Seen from outside: 5,000 visitors making one call each left 5,000 session keys of 2 kB,
    each kept 24 h."""
    players = []
    for n in range(6):
        control.post("/_sandbox/sites/aurora/players", json={"login": f"steady{n}", "password": "pw-123456"})
        player = Browser.on(cluster, f"127.0.43.{n + 1}")
        assert player.attempt_login(f"steady{n}", "pw-123456", on=n % 3).json()["success"] is True
        players.append(player)
    with cluster.redis.client() as redis:
        before = {key for key in redis.scan_iter(count=1000) if not key.startswith(b"bff:flight:")}
    polled: list[int] = []
    flooding = True

    def poll(player: Browser) -> None:
        n = 0
        while flooding:
            polled.append(player.post("/api/cashier/balance", on=n % 3).status_code)
            n += 1
            time.sleep(0.05)

    async def flood() -> list[int]:
        gate = asyncio.Semaphore(200)

        async def visitor(n: int) -> int:
            url, source = cluster.gateways[n % 3].url, f"127.0.50.{n % 100 + 1}"
            async with gate:
                if n % 5 == 0:  # no cookies at all: one call, refused before anything is kept
                    return await post_as(url, source, {}, "/api/player/getCountries", b"{}")
                cookies = await visit(url, source)
                return await post_as(url, source, cookies, "/api/player/getCountries", b"{}")

        return list(await asyncio.gather(*(visitor(n) for n in range(5000))))

    with concurrent.futures.ThreadPoolExecutor(len(players)) as pool:
        polling = [pool.submit(poll, player) for player in players]
        started = time.monotonic()
        try:
            statuses = asyncio.run(flood())
        finally:  # a flood that fails stops the polls too, or the pool waits for them for ever
            flooding = False
        took = time.monotonic() - started
        for future in polling:
            future.result()
    for player in players:
        player.close()
    with cluster.redis.client() as redis:
        flights = sum(1 for _ in redis.scan_iter(match="bff:flight:*", count=1000))
        added = {key for key in redis.scan_iter(count=1000) if not key.startswith(b"bff:flight:")} - before
        charts = {key for key in added if key.startswith(b"bff:aurora:series:")}  # the console's counts: a key an hour
        added -= charts
        visitors = [key for key in added if key.startswith(b"bff:sessions:")]
        ttls = [redis.ttl(key) for key in visitors]
    print(
        f"5,000 visitors from 100 addresses in {took:.1f} s: {len(visitors)} visitors' states kept in Redis, "
        f"{len(added)} new keys in all besides {flights} flight results (15 s each); "
        f"players' polls: {len(polled)}, {set(polled)}"
    )
    assert statuses.count(403) == 1000, "cookie-less calls are refused before anything is kept"
    assert set(statuses) <= {200, 403, 429}
    assert set(polled) == {200} and len(polled) > 20, "logged-in players were served all along"
    assert len(visitors) <= 100 * 30, "at most 30 visitors' states per address"
    assert all(0 < ttl <= 1800 for ttl in ttls), "a visitor's state lives half an hour at most"
    assert len(added) <= len(visitors) + 100 + 1, "beyond them, one counter per address and the skin's index"
    assert len(charts) <= 2, "and the charts' counts of this hour (and the next, when it began meanwhile)"


def test_answers_the_platform_marks_private_are_never_shared_across_instances(
    cluster: Cluster, control: httpx.Client
) -> None:
    """Seen from outside: an answer sent with `Cache-Control: private, no-store` was cached and
    served (HIT) to other visitors on other instances."""
    control.put("/_sandbox/faults/homeBanners", json={"headers": {"Cache-Control": "private, no-store"}})
    with httpx.Client(timeout=10) as visitor, concurrent.futures.ThreadPoolExecutor(10) as pool:
        answers = list(
            pool.map(lambda n: visitor.get(f"{cluster.gateways[n % 3].url}/capi/home-banners?p=1"), range(30))
        )
        assert {a.headers["x-cache"] for a in answers} == {"MISS"}
        assert upstream_calls(control, "homeBanners") == 30
        control.put("/_sandbox/faults/homeBanners", json={"headers": {"Cache-Control": "public, s-maxage=2"}})
        states = [visitor.get(f"{g.url}/capi/home-banners?p=2").headers["x-cache"] for g in cluster.gateways]
        time.sleep(2.5)
        expired = visitor.get(f"{cluster.gateways[0].url}/capi/home-banners?p=2").headers["x-cache"]
    assert states == ["MISS", "HIT", "HIT"], "shared across instances while its s-maxage lasts"
    assert expired == "MISS", "and not a moment longer (s-maxage forbids serving it stale)"
