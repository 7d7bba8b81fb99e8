"""What a route is lives in the catalogue: every set the gateway or the sandbox keys by route
(or by a route's limit class) refers to something the catalogue has, and the gateway's code
names no route."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import get_args

from contracts.catalogue import ROUTES, ROUTES_BY_NAME, LimitClass
from gateway.state.ratelimit import RateLimitConfig
from sandbox.app import registry
from sandbox.content import seed_content
from sandbox.state import Site

GATEWAY = Path(__file__).resolve().parents[3] / "gateway"
FIELD_READERS = frozenset({"get", "pop", "setdefault"})
"""A route's name may also be a word of the platform's bodies (`login`): as a dict key, an index,
a `.get()` argument or a rate limit's subject it names that field, not the route."""


def test_every_limit_class_has_its_limits_and_no_limit_names_a_missing_class() -> None:
    rules = RateLimitConfig().rules
    used = {route.limit for route in ROUTES if route.limit is not None}
    assert used <= set(rules)
    assert set(rules) == set(get_args(LimitClass))


def test_the_sandbox_serves_every_route_and_keeps_content_only_for_routes() -> None:
    assert set(registry().handlers) == set(ROUTES_BY_NAME)
    site = Site(site_id="1", name="Aurora", currency="USD", symbol="$", face="aurora")
    assert set(seed_content(site, random.Random(1))) <= {r.name for r in ROUTES if r.policy == "content"}


def test_the_cashier_and_guessing_routes_keep_their_limits() -> None:
    """The routes the gateway used to name keep what it did with them (new routes may join them)."""
    cashier = {r.name for r in ROUTES if r.limit == "cashier"}
    assert {
        "buy",
        "Mbuy",
        "cashout",
        "cashout12",
        "mercadoCashout",
        "interKassaCashout",
        "exchange",
        "cancelWithdrawRequest",
        "addBankAccount",
        "deleteBankAccounts",
        "depositCallBack",
    } <= cashier
    facts = {name: (r.limit, r.session, r.login_fields) for name, r in ROUTES_BY_NAME.items()}
    assert facts["login"] == ("login-like", "starts", True)
    assert facts["register"] == ("registration", "starts", True)
    assert facts["forgotPassword"] == ("password-reset", None, True)
    assert facts["logout"] == (None, "ends", False)
    assert ROUTES_BY_NAME["sportsEvents"].sports_feed and ROUTES_BY_NAME["media"].cache is not None
    kept = {r.name: r.cache.ttl_s for r in ROUTES if r.cache is not None and r.cache.ttl_s is not None}
    assert kept["media"] == 3600.0 and kept["sportsEvents"] == 60.0


def _route_names_in(path: Path, root: Path = GATEWAY.parent) -> list[str]:
    tree = ast.parse(path.read_text())
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ROUTES_BY_NAME):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Tuple):
            parent = parents.get(parent)  # `Literal["ip", "login"]`
        if isinstance(parent, ast.Dict) and node in parent.keys:
            continue
        if isinstance(parent, ast.Subscript):
            continue
        if isinstance(parent, ast.Call) and parent.args[:1] == [node]:
            func = parent.func
            if isinstance(func, ast.Attribute) and func.attr in FIELD_READERS:
                continue
            if isinstance(func, ast.Name) and func.id in ("Limit", "StreamEvent"):
                continue  # a limit's subject; a server-sent event's type (`event: balance`), not a route
        found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
    return found


def test_no_route_is_named_in_the_gateway() -> None:
    named = [hit for path in sorted(GATEWAY.rglob("*.py")) for hit in _route_names_in(path)]
    assert named == []


def test_the_scan_finds_a_route_named_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('def f(route):\n    return route.name == "logout" or {"login": 1}.get("login")\n')
    assert _route_names_in(sample, tmp_path) == ["sample.py:2: 'logout'"]
