"""Money calls are single across instances: the same withdrawal (one `Idempotency-Key`) sent to
two gateways at once reaches the platform once, and two different withdrawals of one session at
once are one 200 and one 409. Three gateways on one real Redis, and one gateway on its memory
store (its "two instances" are the same process)."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path

import httpx
import pytest

from gateway.store import Shared, keys
from gateway.store.address import SharedRedis
from gateway.store.memory import MemoryShared
from gateway.store.redis import FailFast, RedisShared, connect
from tests.support.browser import Browser
from tests.support.cluster import RedisServer, commands_between, require_redis_server, start_cluster
from tests.support.fixtures import sandbox_url_fixture, upstream_calls
from tests.support.stack import free_port, start_stack

CASHOUT = "/api/cashier/cashout12"
WITHDRAWAL = {"paymentMethod": "paykassma", "amount": 1000, "accountType": "Paytm", "personalNumber": "demo@upi"}


@dataclass
class Site:
    """Gateways in front of one sandbox; `urls[0]` and `urls[1]` are different instances with Redis."""

    urls: list[str]
    sandbox_url: str
    stop: Callable[[], object]
    redis: RedisServer | None = None


@pytest.fixture(scope="module", params=["redis", "memory"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp(f"claims-{request.param}")
    if request.param == "redis":
        cluster = start_cluster(workdir, instances=3)
        try:
            yield Site([g.url for g in cluster.gateways], cluster.sandbox.url, cluster.stop, cluster.redis)
            cluster.assert_clean_logs()
        finally:
            cluster.stop()
        return
    stack = start_stack(workdir)
    try:
        yield Site([stack.url] * 3, stack.sandbox_url, stack.stop)
    finally:
        stack.stop()


sandbox_url = sandbox_url_fixture("site")


class Player(Browser):
    """One player (one session) whose calls go to whichever gateway the test picks."""

    def __init__(self, site: Site, control: httpx.Client, name: str) -> None:
        control.post("/_sandbox/sites/aurora/players", json={"login": name, "password": "pw-123456", "cash": "100000"})
        super().__init__(*site.urls)
        self.name = name
        assert self.attempt_login(name, "pw-123456").json()["success"] is True, name

    def withdraw(self, instance: int, key: str | None) -> httpx.Response:
        return self.post(CASHOUT, WITHDRAWAL, None if key is None else {"Idempotency-Key": key}, on=instance)


def withdrawals(control: httpx.Client, login: str) -> tuple[int, Decimal]:
    ledger = control.get("/_sandbox/sites/aurora/ledger").json()
    count = sum(1 for entry in ledger if entry["login"] == login and entry["kind"] == "cashout")
    cash = Decimal(control.get(f"/_sandbox/sites/aurora/players/{login}").json()["wallets"]["INR"]["cash"])
    return count, cash


def at_once(*sends: Callable[[], httpx.Response]) -> list[httpx.Response]:
    with concurrent.futures.ThreadPoolExecutor(len(sends)) as pool:
        return [future.result() for future in [pool.submit(send) for send in sends]]


def test_the_same_withdrawal_sent_to_two_instances_at_once_is_paid_once(site: Site, control: httpx.Client) -> None:
    players = [Player(site, control, f"twice{n:02d}") for n in range(6)]
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 300})
    control.delete("/_sandbox/calls")
    rounds = 4
    with concurrent.futures.ThreadPoolExecutor(2 * len(players)) as pool:
        for n in range(rounds):  # a session's withdrawals one after another, every player's at once
            sends = [(p, (n + i) % 3, f"{p.name}-w-{n:04d}") for p in players for i in (0, 1)]
            answers = list(pool.map(lambda s: s[0].withdraw(s[1], s[2]), sends))
            for pair in zip(answers[::2], answers[1::2], strict=True):
                assert [a.status_code for a in pair] == [200, 200], [a.text for a in pair]
                assert pair[0].json() == pair[1].json() and pair[0].json()["success"] is True
                replayed = [a.headers.get("idempotent-replayed") for a in pair]
                assert replayed.count("true") <= 1, "one made the call, the other got its answer"
    assert upstream_calls(control, "cashout12") == len(players) * rounds
    for p in players:
        assert withdrawals(control, p.name) == (rounds, Decimal(100000 - rounds * 1000)), p.name
        p.close()


def test_two_different_withdrawals_of_one_session_at_once_are_one_payment_and_one_409(
    site: Site, control: httpx.Client
) -> None:
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 500})
    for n in range(3):
        player = Player(site, control, f"other{n:02d}")
        first, second = at_once(
            partial(player.withdraw, 0, f"{player.name}-a-0001"), partial(player.withdraw, 1, f"{player.name}-b-0001")
        )
        assert sorted(a.status_code for a in (first, second)) == [200, 409], [first.text, second.text]
        refused = first if first.status_code == 409 else second
        assert refused.json()["code"] == "IN_PROGRESS"
        assert withdrawals(control, player.name) == (1, Decimal(99000))
        again = player.withdraw(2, f"{player.name}-c-0001")
        assert again.json()["success"] is True, "once the first is done, the next one goes through"
        assert withdrawals(control, player.name) == (2, Decimal(98000))
        player.close()


def test_a_keyed_and_an_unkeyed_withdrawal_of_one_session_hold_the_same_slot(site: Site, control: httpx.Client) -> None:
    """Whichever comes first holds the session's withdrawal slot on every instance; the later one is 409."""
    control.put("/_sandbox/faults/cashout12", json={"latencyMs": 600})
    player = Player(site, control, "mixed01")
    for n, (first, later) in enumerate(((None, "mixed01-a-0001"), ("mixed01-b-0001", None))):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            made = pool.submit(player.withdraw, 0, first)
            time.sleep(0.2)
            refused = player.withdraw(1, later)
            assert made.result().json()["success"] is True
        assert refused.status_code == 409 and refused.json()["code"] == "IN_PROGRESS", refused.text
        assert withdrawals(control, "mixed01") == (n + 1, Decimal(99000 - n * 1000))
    player.close()


@pytest.mark.parametrize("site", ["redis"], indirect=True)  # the memory store makes no round trips
def test_a_keyed_withdrawal_costs_three_redis_scripts(site: Site, control: httpx.Client) -> None:
    """The cashier rate limit, the claim (record, lease and slot) and the finish (record, lease
    and slot given back): the flight of a keyed call is not led, polled or landed in Redis, and
    the session is the instance's copy (warmed by the first withdrawal there)."""
    assert site.redis is not None
    player = Player(site, control, "trips01")
    player.withdraw(1, "trips01-w-0000")
    before = site.redis.commands()
    answer = player.withdraw(1, "trips01-w-0001")
    used = commands_between(before, site.redis.commands())
    assert answer.json()["success"] is True
    print(f"one keyed withdrawal: {used}")
    assert used.get("evalsha") == 3, used
    player.close()


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[list[Shared]]:
    """Redis (with instance `i` alive: listening on its presence channel) and one process's store."""
    server = RedisServer(require_redis_server(), free_port(), tmp_path)
    server.start()
    redis = connect(SharedRedis(url=server.url))
    async with redis.pubsub() as presence:
        await presence.subscribe(keys.PRESENCE_CHANNEL + "i")
        yield [RedisShared(redis, FailFast()), MemoryShared()]
    await redis.aclose()
    server.stop()


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_a_claim_holds_the_session_and_routes_slot_until_finished_or_abandoned(
    stores: list[Shared], anyio_backend: str
) -> None:
    slot = keys.exclusive_slot("aurora", "s1", "cashout12")
    first, second = "bff:aurora:idem:key-0001", "bff:aurora:idem:key-0002"
    for store in stores:
        await store.delete_prefix("bff:")
        assert (await store.claim(first, b"r1", 60_000, first + ":holder", b"i:1", 5000, slot))[0] == "claimed"
        assert (await store.claim(second, b"r2", 60_000, second + ":holder", b"i:2", 5000, slot))[0] == "conflict"
        assert await store.get(second) is None, "a refused claim leaves no record"
        kind, record, alive = await store.claim(first, b"r1", 60_000, first + ":holder", b"i:3", 5000, slot)
        assert (kind, record, alive) == ("exists", b"r1", True), "a repeat of the first finds its record"
        await store.set_and_release(first, b"done", 60_000, first + ":holder", b"i:1", slot)
        assert await store.get(first) == b"done"
        assert (await store.claim(second, b"r2", 60_000, second + ":holder", b"i:2", 5000, slot))[0] == "claimed"
        await store.release(second, second + ":holder", b"i:9", slot)
        assert await store.get(second) == b"r2", "only its holder gives a claim back"
        await store.release(second, second + ":holder", b"i:2", slot)
        assert await store.get(second) is None, "abandoned: the key may be used again"
        assert await store.get(slot) is None, "and the slot is free"
        assert (await store.lead("bff:flight:lease:f", b"i:4", 5000, slot, "f", takeover=False))[0] == "lead"
        assert (await store.claim(second, b"r2", 60_000, second + ":holder", b"i:5", 5000, slot))[0] == "conflict"
        await store.set_and_release(second, b"late", 60_000, second + ":holder", b"i:5", slot)
        assert await store.get(slot) is not None, "a release frees only a slot it holds"
    redis = stores[0]
    await redis.set(slot, b"gone:9|" + first.encode(), 5000)  # its instance died (nobody listens)
    third = "bff:aurora:idem:key-0003"
    assert (await redis.claim(third, b"r3", 60_000, third + ":holder", b"i:6", 5000, slot))[0] == "claimed"
