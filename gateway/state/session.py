"""The player's server-side session: the browser holds only an opaque cookie.

Litestar's `Store` (memory, or Redis with many instances) keeps the data. Litestar's
`ServerSideSessionBackend` is not used because it rewrites the session on every response
(a balance poll that ends after a login would write back the pre-login session) and
cannot rotate the id at login; here a session is saved only when it changed, and
`rotate()` gives it a new id (no fixation).
"""

from __future__ import annotations

import contextlib
import math
import secrets
import time

import msgspec
from litestar.stores.base import Store

from gateway.http.cookies import BROWSER_SESSION_ID
from gateway.state.replicas import SessionReplicas
from gateway.store import Shared, StoreUnavailable, keys
from gateway.store.memory import MemoryShared

REMEMBER_SECONDS = 30 * 24 * 3600
IDLE_SECONDS = 24 * 3600
"""A browser-session cookie's server side lives this long without use."""
ANONYMOUS_SECONDS = 30 * 60
"""A visitor's upstream cookies (the platform's XSRF token...) are kept this long."""
ANONYMOUS_PER_ADDRESS = 30
"""At most this many visitors' states are newly kept per client address and window; past it
the calls still go through, only nothing is kept for them (the platform's XSRF refusal is then
met by one resend, as on a first visit)."""
ANONYMOUS_WINDOW_S = 600
"""The window of `ANONYMOUS_PER_ADDRESS`, in seconds."""
MAX_VISITORS = 50_000
"""Visitors' states kept per skin at most: past it the oldest go (about 25 MB of Redis per skin)."""


class SessionData(msgspec.Struct, kw_only=True):
    wsession: str | None = None
    """The upstream platform's session id: never leaves the gateway."""
    login: str | None = None
    remember: bool = False
    jars: dict[str, dict[str, str]] = {}
    """Upstream cookies per upstream origin (its XSRF-TOKEN among them)."""
    created: float = 0.0
    pins: dict[str, str] = {}
    """Upstream name -> the base URL this session was signed in on while a canary ran (both sides
    are pinned: `gateway.canary.routing`); empty outside canaries."""
    canary: str | None = None
    """The canary the pins were given by."""
    signed_in: float = 0.0
    """When the player signed in (epoch seconds; `created` is when the cookie was made): the
    header's clock and the reality checks count from it."""
    opening: float | None = None
    """The real-money wallet's cash at sign-in: the first balance the platform gave the session
    (`gateway.pipeline.observe`); the reality check shows the change since."""

    @property
    def since(self) -> float:
        """When the session's clock starts: its sign-in, or for a session signed in before the
        sign-in time was kept, when it was made."""
        return self.signed_in or self.created

    @property
    def logged_in(self) -> bool:
        return self.wsession is not None


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(SessionData)


class Session(msgspec.Struct, array_like=True):
    """One request's view of a session: its id, data, and whether anything must be saved."""

    id: str
    data: SessionData
    stored: bytes | None
    """The bytes loaded from the store (None: nothing stored yet)."""
    previous_id: str | None = None
    """The id before a rotation: deleted from the store when saved."""
    is_new: bool = False
    """The browser does not have this id yet: the cookie must be set."""
    logged_in_now: bool = False
    """Logged in by this request: the id joins the player's list (for revocation) when saved."""
    trusted_login: str | None = None
    """Logged in with a password by this request: the browser is given a device cookie for it."""

    def log_in(self, wsession: str, login: str | None, remember: bool, *, with_password: bool = True) -> None:
        self.data.wsession = wsession
        self.data.login = login
        self.data.remember = remember
        self.data.signed_in, self.data.opening = time.time(), None
        self.logged_in_now = True
        if with_password and login:
            self.trusted_login = login.lower()
        self.rotate()

    def log_out(self) -> None:
        """Forgets the player; the visitor keeps browsing with a fresh, empty session."""
        self.data = SessionData(created=time.time())
        self.rotate()

    def rotate(self) -> None:
        if self.previous_id is None and self.stored is not None:
            self.previous_id = self.id
        self.id = new_id()
        self.is_new = True

    @property
    def cookie_age(self) -> int | None:
        """The session cookie's `Max-Age`: a remembered session's lifetime, else none (the cookie
        goes when the browser closes)."""
        return REMEMBER_SECONDS if self.data.remember else None

    def encoded(self) -> bytes:
        return _encoder.encode(self.data)

    @classmethod
    def anonymous(cls) -> Session:
        """The stand-in for calls that carry no session (public content)."""
        return cls("", SessionData(), None)


def decode_session(raw: bytes) -> SessionData:
    return _decoder.decode(raw)


def new_id() -> str:
    return secrets.token_urlsafe(32)


class Sessions:
    """Loads and saves sessions in a Litestar store, namespaced per skin.

    With Redis the store is `SessionReplicas`: a session once found is read from this instance's
    replica, and concurrent loads of one session not replicated yet share one Redis read; each
    request still gets its own decoded data to change.
    """

    def __init__(self, store: Store, shared: Shared | None = None) -> None:
        self.store = store
        self.shared = shared or MemoryShared()

    async def load(self, skin_id: str, session_id: str | None) -> Session:
        if session_id and BROWSER_SESSION_ID.match(session_id):
            raw = await self.store.get(keys.session(skin_id, session_id))
            if raw is not None:
                try:
                    return Session(session_id, _decoder.decode(raw), raw)
                except msgspec.DecodeError:
                    pass
            # An id the store does not know (ended, expired, or never stored because the
            # visitor had nothing to keep) is an empty anonymous session. It holds no
            # privilege: logging in always rotates to a new id.
            return Session(session_id, SessionData(created=time.time()), None)
        return Session(new_id(), SessionData(created=time.time()), None, is_new=True)

    async def save(self, skin_id: str, session: Session, address: str | None = None) -> None:
        """Writes the session if it changed; removes the old id after a rotation. A visitor's
        (not logged in) is kept only once their browser came back with our cookie, for
        `ANONYMOUS_SECONDS`, and for at most `ANONYMOUS_PER_ADDRESS` new visitors per `address`
        and window: a flood of one-call visitors costs no storage at all."""
        if session.previous_id is not None:
            await self.store.delete(keys.session(skin_id, session.previous_id))
            session.previous_id = None
        logged_in = session.data.logged_in
        if session.stored is None and not logged_in:
            await self._keep_visitor(skin_id, session, address)
            return
        encoded = session.encoded()
        if encoded == session.stored:
            return
        ttl = REMEMBER_SECONDS if session.data.remember else IDLE_SECONDS if logged_in else ANONYMOUS_SECONDS
        await self.store.set(keys.session(skin_id, session.id), encoded, expires_in=ttl)
        session.stored = encoded
        if session.logged_in_now and session.data.login:
            session.logged_in_now = False
            with contextlib.suppress(StoreUnavailable):  # the login stands; only revocation misses it
                await self._remember(skin_id, session.data.login, session.id)

    async def _keep_visitor(self, skin_id: str, session: Session, address: str | None) -> None:
        """A visitor's first state: kept only for a browser that came back with our cookie, within
        its address's allowance, in the skin's capped index of visitors."""
        if not session.data.jars or session.is_new or not address:
            return
        count, _ = await self.shared.hit(keys.of_skin(skin_id, keys.VISITORS, address), ANONYMOUS_WINDOW_S * 1000)
        if count > ANONYMOUS_PER_ADDRESS:
            return
        encoded, key = session.encoded(), keys.stored_session(skin_id, session.id)
        await self.shared.set_capped(
            key, encoded, ANONYMOUS_SECONDS * 1000, keys.of_skin(skin_id, keys.VISITORS, "~index"), MAX_VISITORS
        )
        if isinstance(self.store, SessionReplicas):  # written beside the session store: announced
            await self.store.announce(key)
        session.stored = encoded

    async def revoke(self, skin_id: str, session_id: str) -> None:
        await self.store.delete(keys.session(skin_id, session_id))

    async def revoke_player(self, skin_id: str, login: str) -> int:
        """Ends every session the player logged in with on this skin; returns how many were live."""
        key = keys.of_skin(skin_id, keys.PLAYER_SESSIONS, login.lower())
        raw = await self.shared.get(key)
        ended = 0
        for session_id in _ids.decode(raw) if raw else []:
            if await self.store.exists(keys.session(skin_id, session_id)):
                ended += 1
                await self.store.delete(keys.session(skin_id, session_id))
        await self.shared.delete(key)
        return ended

    async def _remember(self, skin_id: str, login: str, session_id: str) -> None:
        """The player's recent session ids (read-modify-write: a rare race between two logins
        of one player at the same instant can drop one id from the list)."""
        key = keys.of_skin(skin_id, keys.PLAYER_SESSIONS, login.lower())
        raw = await self.shared.get(key)
        ids = [i for i in (_ids.decode(raw) if raw else []) if i != session_id][-(MAX_TRACKED - 1) :]
        await self.shared.set(key, _ids_encoder.encode([*ids, session_id]), REMEMBER_SECONDS * 1000)


MAX_TRACKED = 50
SIGN_IN_BLOCKS = "sign-in-blocks"


async def block_sign_in(shared: Shared, skin_id: str, login: str, seconds: int) -> float | None:
    """Refuses the player's new sign-ins on the skin for `seconds`, on every instance; when that ends
    (None: `seconds` is 0, nothing is blocked)."""
    if seconds <= 0:
        return None
    until = time.time() + seconds
    kept = str(math.floor(until * 1000)).encode()  # epoch ms, rounded down: never a second more than asked
    await shared.set(keys.of_skin(skin_id, SIGN_IN_BLOCKS, login.lower()), kept, seconds * 1000)
    return until


async def sign_in_wait(shared: Shared, skin_id: str, login: str) -> int:
    """Seconds until the player may sign in on the skin again (0: now). With the store away a sign-in
    goes on (the platform still checks the password): refusing them all would be the larger outage."""
    try:
        raw = await shared.get(keys.of_skin(skin_id, SIGN_IN_BLOCKS, login.lower()))
    except StoreUnavailable:
        return 0
    return max(0, math.ceil(int(raw) / 1000 - time.time())) if raw else 0


_ids = msgspec.msgpack.Decoder(list[str])
_ids_encoder = msgspec.msgpack.Encoder()
