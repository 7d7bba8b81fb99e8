"""What the proxied path tells the balance stream: `BalanceSink`, the one way into it from the
pipeline (`gateway.pipeline.observe`), which imports this protocol and nothing else of the stream.
The composition root (`gateway.app`) hands it the feed (`gateway.balance.feed.BalanceFeed`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from contracts.catalogue import Route
    from gateway.state.outcome import Outcome
    from gateway.state.session import Session


class BalanceSink(Protocol):
    """The balance stream as the proxied path sees it: told of every proxied call the platform
    answered (content and calls that got no answer excepted), once per call, after the session
    took the answer. Of those answers it reads four kinds, and nothing of any other:

    - a login (`route.session == "starts"`, the session logged in after it and not before): the
      player's tabs ask the platform for the balance at once, and twice shortly after;
    - a session's end (the session had a login before the call and is not logged in after it: a
      route that ends it, or the platform's `SESSION_EXPIRED`): every tab of that session, on
      every instance, gets an `end` event;
    - a money call that succeeded (`MONEY_CALLS`, status 200, `success` not false): the tabs ask
      the platform at once and twice shortly after (a provider's approval may come later);
    - a balance read (`BALANCE`, status 200, a balance in it): a value new for the player goes
      to every tab of theirs, on every instance (Redis is told only of a value this process has
      not seen for the player).

    It never makes the call wait: what it does goes on in the background."""

    def on_outcome(
        self, skin_id: str, route: Route, login: str | None, before: str, session: Session, outcome: Outcome
    ) -> None:
        """A proxied call's answer (`outcome`), on `route` of skin `skin_id`; `login` and `before`
        are the session's login and id before the call, `session` the session as the call left it."""
        ...
