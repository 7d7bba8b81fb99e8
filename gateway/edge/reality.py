"""`/bff/reality`: the session's reality check, as every tab of it reads and answers it.

`GET` tells a tab the gateway's `now`, the session's sign-in and period, and the check open
(its figures read from the platform then: the session's time, its deposits and withdrawals from
the transaction history, the balance's change since sign-in), or none. Each tab asks again when
the next check falls due by the gateway's clock, so every tab opens it at the same moment.
`POST /bff/reality/answer` answers every check due so far, once for the session
(`gateway.state.reality`), and every tab of it, on every instance, hears it on the balance
stream (a `reality` event) and closes its own.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec
import structlog
from litestar import Request, get, post
from litestar.di import NamedDependency

from contracts.catalogue import BALANCE, TRANSACTION_HISTORY
from gateway.balance.feed import BalanceFeed
from gateway.config.skins import Skin
from gateway.edge.bff import unknown_site
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import error
from gateway.http.security import forgery
from gateway.state.reality import answer_check, answered_check, due_check, history_request, session_moves, wallet_cash
from gateway.state.session import Session, Sessions
from gateway.upstream.platform import Platform

log = structlog.get_logger("gateway.reality")
NO_STORE = (b"cache-control", b"no-store")


class CheckFigures(msgspec.Struct, rename="camel"):
    """What a check shows: money is None where the platform did not answer."""

    number: int
    due_at: int
    """Epoch ms, by the gateway's clock."""
    session_seconds: int
    """The session's length when the check fell due: the same in every tab, whenever it asked."""
    deposits: float | None
    withdrawals: float | None
    balance_change: float | None


class RealityState(msgspec.Struct, rename="camel"):
    now: int
    """The gateway's clock (epoch ms): a tab's clock reads from it, not from its own."""
    signed_in_at: int
    every_seconds: float | None
    """The skin's period; None: no checks on this skin."""
    answered: int
    check: CheckFigures | None


@get("/bff/reality")
async def reality(
    request: Request[Any, Any, Any],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
    platform: NamedDependency[Platform],
) -> Outgoing:
    """The session's clock and its open reality check; 401 for a visitor."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    ctx.skin, ctx.route = skin.id, "reality"
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    if not session.data.logged_in:
        return error(401, "NOT_LOGGED_IN", "Log in to see the session's figures", ctx)
    state = await _state(skin, sessions, session)
    if state.check is not None:
        state.check = await _figures(incoming, ctx, skin, platform, session, state.check)
    return Outgoing.json(200, msgspec.to_builtins(state), ctx, NO_STORE)


@post("/bff/reality/answer", status_code=200)
async def answer(
    request: Request[Any, Any, Any],
    skin: NamedDependency[Skin | None],
    sessions: NamedDependency[Sessions],
    browser_cookies: NamedDependency[BrowserCookies],
    feed: NamedDependency[BalanceFeed],
) -> Outgoing:
    """Answers every check due so far for the whole session (the player chose to continue, or is
    leaving for the history or signing out: each answers it)."""
    ctx, incoming = RequestContext.of(request.scope), Incoming.of(request.scope)
    if skin is None:
        return unknown_site(ctx)
    ctx.skin, ctx.route = skin.id, "realityAnswer"
    session = await sessions.load(skin.id, incoming.cookie(browser_cookies.session))
    refused = forgery(browser_cookies.xsrf, request.method, incoming.headers, None if session.is_new else session.id)
    if refused is not None:
        return error(403, *refused, ctx)
    if not session.data.logged_in:
        return error(401, "NOT_LOGGED_IN", "Log in to answer the reality check", ctx)
    state = await _state(skin, sessions, session)
    if state.check is not None:
        await answer_check(sessions.shared, skin.id, session.id, state.check.number)
        state.answered, state.check = state.check.number, None
        if session.data.login:
            await feed.announce_answer(skin.id, session.data.login, session.id, state.answered)
        log.info("reality.answered", skin=skin.id, check=state.answered)
    return Outgoing.json(200, msgspec.to_builtins(state), ctx, NO_STORE)


async def _state(skin: Skin, sessions: Sessions, session: Session) -> RealityState:
    """The clock and the check due (without its money figures)."""
    now = time.time()
    signed_in = session.data.since
    minutes = skin.features.reality_check_minutes
    every = minutes * 60 if minutes else None
    answered = await answered_check(sessions.shared, skin.id, session.id) if every else 0
    due = due_check(signed_in, now, every) if every else 0
    check = None
    if every and due > answered:
        due_at = int((signed_in + due * every) * 1000)
        check = CheckFigures(due, due_at, round(due * every), None, None, None)  # the session's time when it fell due
    return RealityState(int(now * 1000), int(signed_in * 1000), every, answered, check)


async def _figures(
    incoming: Incoming, ctx: RequestContext, skin: Skin, platform: Platform, session: Session, check: CheckFigures
) -> CheckFigures:
    """The check's money figures, from the platform now (the balance and the history together)."""
    signed_in = session.data.since
    body = history_request(signed_in, time.time(), skin.currency)
    balance, history = await asyncio.gather(
        platform.ask(incoming, ctx, skin, BALANCE, session, b"{}"),
        platform.ask(incoming, ctx, skin, TRANSACTION_HISTORY, session, body),
    )
    moves = session_moves(history.body, signed_in) if history.failure is None and history.status == 200 else None
    cash = wallet_cash(balance.body, skin.currency) if balance.failure is None and balance.status == 200 else None
    opening = session.data.opening
    check.deposits, check.withdrawals = moves if moves is not None else (None, None)
    check.balance_change = round(cash - opening, 2) if cash is not None and opening is not None else None
    return check


route_handlers = [reality, answer]
