"""The one object a proxied request carries through the stages: what the player sent, what each
stage learnt of it, and, once a stage answers, that answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from contracts.catalogue import Route
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, RequestContext
from gateway.state.ratelimit import Admission
from gateway.state.session import Session


@dataclass(slots=True)
class Exchange:
    incoming: Incoming
    ctx: RequestContext
    skin: Skin | None = None
    """1. skin: the Host's skin."""
    route: Route | None = None
    """2. guard: the catalogue route, its path parameters, the client's address, the body."""
    params: dict[str, str] = field(default_factory=dict)
    address: str = ""
    """The client as limits count it (`ratelimit.address_key`)."""
    body: bytes | None = None
    upload: AsyncIterator[bytes] | None = None
    """A multipart body, streamed to the platform as it arrives."""
    login: str | None = None
    """The login name sent at login, register and forgot-password."""
    remember: bool = False
    """`rememberMe` at login: the gateway's to keep (a persistent cookie), never the platform's."""
    admission: Admission | None = None
    """The places this call holds in rate limits (given back on success, in observe)."""
    session: Session = field(default_factory=Session.anonymous)
    """3. session: the player's (an anonymous stand-in for content)."""

    @property
    def variant(self) -> str:
        """`""` on the skin's own upstreams; a canary's new side otherwise. Content copies and
        flights are kept by it, so that one side's answer is never served to the other's."""
        canary = self.ctx.canary
        return f"{canary[0]}:new" if canary is not None and canary[1] == "new" else ""

    @property
    def exclusive(self) -> bool:
        return self.route is not None and self.route.exclusive

    def site(self) -> tuple[Skin, Route]:
        """The skin and the route, known past the guard."""
        assert self.skin is not None and self.route is not None, "asked before the guard ran"
        return self.skin, self.route
