"""A canary's routing: which side a player, a visitor and a content read go to, and that a player
keeps it; a session pinned to an upstream that is gone is ended once, as the platform would."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest
import respx

from contracts.catalogue import ROUTES_BY_NAME
from gateway.canary.model import DEFAULT_STEPS, Canary, State, Step, Thresholds
from gateway.canary.routing import CanaryStage, fraction, side_of
from gateway.config.skins import Skin, builtin
from gateway.http.asgi import Incoming, RequestContext
from gateway.http.clients import TrustedProxies
from gateway.pipeline.exchange import Exchange
from gateway.state.session import Session, SessionData, Sessions, new_id
from gateway.store import keys
from gateway.store.memory import MemoryShared, ProcessStore
from tests.support.cms import banners, ids
from tests.support.gateway import browser_on, gateway_app
from tests.unit.gateway.conftest import calls

OLD, NEW = "http://old.test", "http://new.test"
COOKIE = "bff"
pytestmark = pytest.mark.anyio
BALANCE, LOGIN, CONTENT = ROUTES_BY_NAME["balance"], ROUTES_BY_NAME["login"], ROUTES_BY_NAME["homeBanners"]
BANNERS = CONTENT.path


def canary(share: float = 0.1, state: State = "running", **kw: Any) -> Canary:
    steps = [Step(share, 60.0), *DEFAULT_STEPS[1:]]
    return Canary(
        id="c1", skin="aurora", upstream="api", before=OLD, after=NEW, steps=steps, thresholds=Thresholds(),
        state=state, started=1000.0, **kw,
    )  # fmt: skip


class Board:
    def __init__(self, canary: Canary | None = None) -> None:
        self.canary = canary

    def current(self, skin: str) -> Canary | None:
        return self.canary


def the_skin(api: str = OLD) -> Skin:
    skin = builtin("http://sandbox.test").all[0]
    return msgspec.structs.replace(skin, upstreams=msgspec.structs.replace(skin.upstreams, api=api))


def exchange(
    route: Any, session: Session | None = None, cookie: str | None = None, skin: Skin | None = None, peer: str = ""
) -> Exchange:
    """A request past the guard (which reads the client's address for all but content)."""
    headers = [(b"cookie", f"{COOKIE}={cookie}".encode())] if cookie else []
    scope = {"method": route.method, "path": route.path, "query_string": b"", "headers": headers, "client": (peer, 1)}
    address = "" if route.policy == "content" else "10.0.0.1"
    x = Exchange(Incoming(scope, None), RequestContext("r1"), skin or the_skin(), route, address=address)
    x.session = session or Session(new_id(), SessionData(created=2000.0), None)
    return x


def player(pin: str | None = None, created: float = 2000.0) -> Session:
    data = SessionData(wsession="W", login="demo1", created=created)
    if pin is not None:
        data.pins, data.canary = {"api": pin}, "c1"
    return Session(new_id(), data, b"stored")


def stage(board: Board, clock: float = 3000.0) -> tuple[CanaryStage, Sessions]:
    memory = MemoryShared()
    sessions = Sessions(ProcessStore(memory, keys.SESSIONS + ":"), memory)
    return CanaryStage(board, sessions, COOKIE, TrustedProxies(["127.0.0.1/32"]), clock=lambda: clock), sessions


def api_base(x: Exchange) -> str:
    return x.site()[0].upstreams.base("api")


def test_a_tenth_of_ten_thousand_players_go_to_the_new_side() -> None:
    ids = [new_id() for _ in range(10_000)]
    new = [i for i in ids if side_of(canary(0.1), i) == "new"]
    assert 900 <= len(new) <= 1100
    assert [side_of(canary(0.1), i) for i in ids[:50]] == [side_of(canary(0.1), i) for i in ids[:50]]


def test_a_rising_share_never_moves_a_browser_back_to_the_old_side() -> None:
    keys_ = [new_id() for _ in range(2000)]
    at = {share: {k for k in keys_ if side_of(canary(share), k) == "new"} for share in (0.01, 0.1, 0.5, 1.0)}
    assert at[0.01] <= at[0.1] <= at[0.5] <= at[1.0] == set(keys_)
    other = msgspec.structs.replace(canary(0.1), id="c2")
    assert {k for k in keys_ if side_of(other, k) == "new"} != at[0.1], "another canary draws anew"
    assert all(0 <= fraction("c1", k) < 1 for k in keys_)


async def test_a_sign_in_is_pinned_to_its_side_and_the_login_goes_there() -> None:
    routing, _ = stage(Board(canary(1.0)))
    x = exchange(LOGIN, cookie=None)
    assert await routing.run(x) is None
    assert x.session.data.pins == {"api": NEW} and api_base(x) == NEW
    assert x.ctx.canary == ("c1", "new")
    x.session.log_in("W", "demo1", False)
    assert x.session.data.pins == {"api": NEW}, "the login keeps the pin it was given"


async def test_a_pinned_player_keeps_the_side_when_the_share_changes() -> None:
    board = Board(canary(1.0))
    routing, _ = stage(board)
    for share in (0.01, 1.0, 0.5):
        board.canary = canary(share)
        for pin in (OLD, NEW):
            x = exchange(BALANCE, player(pin))
            assert await routing.run(x) is None
            assert api_base(x) == pin
            assert x.ctx.canary == ("c1", "new" if pin == NEW else "old")


async def test_a_player_signed_in_before_the_canary_stays_on_the_old_side_until_the_drain_ends() -> None:
    board = Board(canary(1.0))
    routing, _ = stage(board)
    x = exchange(BALANCE, player(created=500.0), skin=the_skin())
    await routing.run(x)
    assert api_base(x) == OLD
    board.canary = canary(1.0, "promoted", drain_until=4000.0)  # the skin's upstream is now the new one
    for pin in (None, OLD):
        x = exchange(BALANCE, player(pin, created=500.0), skin=the_skin(NEW))
        assert await routing.run(x) is None
        assert api_base(x) == OLD and x.ctx.canary is None, "drained, not judged"


async def test_a_player_pinned_to_a_rolled_back_upstream_is_ended_once() -> None:
    routing, sessions = stage(Board(None))  # rolled back: the board has no canary for the skin
    session = player(NEW)
    before = session.id
    await sessions.store.set(keys.session("aurora", before), session.encoded())
    x = exchange(BALANCE, session)
    ended = await routing.run(x)
    assert ended is not None and b'"SESSION_EXPIRED"' in ended.body
    assert not x.session.data.logged_in and x.session.data.pins == {}
    assert await sessions.store.get(keys.session("aurora", before)) is None, "its old id is gone"
    assert x.session.id != before and x.session.is_new, "the browser is given a new, empty session"
    x = exchange(BALANCE, player(OLD))
    assert await routing.run(x) is None and api_base(x) == OLD, "the old side's players go on"


async def test_an_old_pin_ends_when_the_drain_is_over() -> None:
    routing, _ = stage(Board(canary(1.0, "promoted", drain_until=2500.0)), clock=3000.0)
    x = exchange(BALANCE, player(OLD), skin=the_skin(NEW))
    ended = await routing.run(x)
    assert ended is not None and b'"SESSION_EXPIRED"' in ended.body


async def test_a_sign_in_without_a_live_canary_drops_what_a_failed_attempt_left() -> None:
    routing, _ = stage(Board(canary(1.0, "rolled-back")))
    visitor = Session(new_id(), SessionData(pins={"api": NEW}, canary="c1"), None)
    x = exchange(LOGIN, visitor)
    assert await routing.run(x) is None
    assert x.session.data.pins == {} and api_base(x) == OLD


@pytest.mark.parametrize("route", [BALANCE, CONTENT])
async def test_a_browser_sees_one_side_by_its_cookie_or_its_address(route: Any) -> None:
    routing, _ = stage(Board(canary(0.5)))
    sides = set()
    for _ in range(3):
        x = exchange(route, cookie="browser-one-cookie-value-0123456789abcdef")
        await routing.run(x)
        sides.add((api_base(x) if route.upstream == "api" else None, x.ctx.canary))
    assert len(sides) == 1
    cookies = [new_id() for _ in range(400)]
    seen = set()
    for cookie in cookies:
        x = exchange(BALANCE, cookie=cookie)
        await routing.run(x)
        seen.add(api_base(x))
    assert seen == {OLD, NEW}


async def test_content_reads_without_a_cookie_draw_by_their_address() -> None:
    routing, _ = stage(Board(msgspec.structs.replace(canary(0.5), upstream="capi")))
    sides = {}
    for n in range(200):
        peer = f"10.1.{n // 250}.{n % 250}"
        x = exchange(CONTENT, peer=peer)
        await routing.run(x)
        again = exchange(CONTENT, peer=peer)
        await routing.run(again)
        assert again.ctx.canary == x.ctx.canary, "one address, one side"
        sides[peer] = x.ctx.canary
    assert {side for _, side in sides.values() if side} == {"old", "new"}


async def test_no_canary_costs_nothing_and_changes_nothing() -> None:
    routing, _ = stage(Board(None))
    skin = the_skin()
    x = exchange(BALANCE, player(), skin=skin)
    assert await routing.run(x) is None
    assert x.skin is skin and x.ctx.canary is None and x.variant == ""


async def test_the_new_sides_content_is_kept_apart() -> None:
    routing, _ = stage(Board(msgspec.structs.replace(canary(1.0), upstream="capi")))
    x = exchange(CONTENT)
    await routing.run(x)
    assert x.ctx.canary == ("c1", "new") and x.variant == "c1:new"
    assert x.site()[0].upstreams.base("capi") == NEW


async def test_a_content_copy_of_one_side_is_never_served_to_the_other(upstream: respx.Router) -> None:
    """Through the whole gateway: the new side's copy is cached apart, and each browser is served
    its own side's copy from the cache after the first fetch."""
    kept = {"cache-control": "public, max-age=60"}
    old = upstream.get(BANNERS).mock(return_value=httpx.Response(200, json=banners(1), headers=kept))
    new = upstream.get("/v2" + BANNERS).mock(return_value=httpx.Response(200, json=banners(2), headers=kept))
    app = gateway_app(upstream)
    async with browser_on(app) as first, browser_on(app) as second:
        configured = app.gateway.config.skins.for_host("testserver.local")
        assert configured is not None
        base = configured.upstreams.base("capi")
        live = msgspec.structs.replace(
            canary(0.5), skin=configured.id, upstream="capi", before=base, after=base + "/v2"
        )
        assert app.gateway.canaries is not None
        app.gateway.canaries.board.saw(configured.id, live)
        sides: dict[str, Any] = {}
        for browser in (first, second):
            while browser not in sides.values():  # a new session cookie until it draws the side not taken
                browser.client.cookies.clear()
                await browser.start()
                sides.setdefault(side_of(live, browser.client.cookies["bff"]), browser)
        for _ in range(3):
            for side, browser in sides.items():
                assert ids((await browser.get(BANNERS)).json()) == [2 if side == "new" else 1]
    assert (calls(old), calls(new)) == (1, 1), "each side's copy fetched once, then served from the cache"


async def test_a_players_calls_off_the_proxied_path_go_to_their_side() -> None:
    """The balance stream and `/bff/*` ask the platform for a player too (`Platform.sides`)."""
    board = Board(canary(0.01))
    routing, _ = stage(board)
    skin = the_skin()

    def seen(skin: Skin, session: Session, upstream: Any = "api") -> tuple[str, Any]:
        ctx = RequestContext("r")
        return routing.for_session(skin, session, upstream, ctx).upstreams.base("api"), ctx.canary

    assert seen(skin, player(NEW)) == (NEW, ("c1", "new")), "the new side's breaker, its figures"
    assert seen(skin, player(OLD)) == (OLD, ("c1", "old"))
    assert seen(skin, player(created=500.0)) == (OLD, ("c1", "old")), "older than the canary: the old side"
    assert seen(skin, player(NEW), "capi") == (OLD, None), "another upstream"
    board.canary = canary(1.0, "promoted", drain_until=4000.0)
    assert seen(the_skin(NEW), player(created=500.0)) == (OLD, None), "draining: not judged"
    board.canary = None
    assert seen(skin, player(NEW)) == (OLD, None), "a pin gone: its next proxied call ends it"


async def test_a_failing_new_platform_opens_its_own_breaker_not_the_skins(upstream: respx.Router) -> None:
    """A canary's new side failing fails fast on its own; the skin's breaker, and its old side's
    players, are untouched."""
    providers = "/api/agentAccount/getProviders"
    old = upstream.post(providers).mock(return_value=httpx.Response(200, json=[]))
    new = upstream.post("/v2" + providers).mock(return_value=httpx.Response(500, json={}))
    app = gateway_app(upstream)
    async with browser_on(app) as newcomer, browser_on(app) as regular:
        skin = app.gateway.config.skins.for_host("testserver.local")
        assert skin is not None and app.gateway.canaries is not None
        base = skin.upstreams.base("api")
        live = msgspec.structs.replace(canary(0.5), skin=skin.id, before=base, after=base + "/v2")
        app.gateway.canaries.board.saw(skin.id, live)
        for browser, wanted in ((newcomer, "new"), (regular, "old")):
            while True:  # a session cookie that draws the side wanted
                browser.client.cookies.clear()
                await browser.start()
                if side_of(live, browser.client.cookies["bff"]) == wanted:
                    break
        statuses = [(await newcomer.post(providers)).status_code for _ in range(12)]
        assert statuses[-1] == 503 and calls(new) < 12, "open: the new side fails fast"
        for _ in range(5):
            assert (await regular.post(providers)).status_code == 200
        assert calls(old) == 5
        assert all(state == "closed" for state in app.gateway.breakers.states().values())
