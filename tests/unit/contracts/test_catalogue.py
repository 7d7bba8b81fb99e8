"""The route catalogue: matching, session placeholders, and generated files kept fresh."""

from __future__ import annotations

import pytest

from contracts.catalogue import ROUTES, Catalogue


def test_every_route_is_found_by_its_public_path() -> None:
    catalogue = Catalogue()
    for route in ROUTES:
        path = route.public_path
        for param in route.params:
            path = path.replace("{" + param + "}", "x1")
        found = catalogue.match(route.method, path)
        assert found is not None and found[0] is route, route.name


def test_paths_outside_the_catalogue_are_not_found() -> None:
    catalogue = Catalogue()
    assert catalogue.match("POST", "/api/player/deleteEverything") is None
    assert catalogue.match("GET", "/api/player/login") is None
    assert catalogue.match("GET", "/rest/habanero/session/a/b/c") is None
    assert catalogue.match("GET", "/elsewhere") is None


def test_session_placeholders_are_filled_only_by_the_gateway() -> None:
    catalogue = Catalogue()
    route, params = catalogue.match("GET", "/rest/habanero/session/g42") or pytest.fail("no match")
    assert route.carries_session_in_path
    assert route.upstream_path(params, "S3CR3T") == "/rest/habanero/session/S3CR3T/g42"
    with pytest.raises(ValueError):
        route.upstream_path(params)
    ezugi, _ = catalogue.match("GET", "/rest/ezugi/session") or pytest.fail("no match")
    assert ezugi.upstream_path({}, "S") == "/rest/ezugi/session/S"


def test_policies_follow_the_rules_of_the_road() -> None:
    by_name = {r.name: r for r in ROUTES}
    for name in (
        "login",
        "register",
        "logout",
        "buy",
        "Mbuy",
        "cashout",
        "cashout12",
        "mercadoCashout",
        "interKassaCashout",
        "cancelWithdrawRequest",
        "addBankAccount",
        "deleteBankAccounts",
        "updatePassword",
    ):
        assert by_name[name].policy == "exclusive", name
    assert all(r.method == "GET" and not r.auth for r in ROUTES if r.policy == "content")
    assert by_name["balance"].policy == "read" and by_name["balance"].auth
