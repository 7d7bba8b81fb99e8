"""The allowed upstream hosts in the browser: the change dialog shows the hosts the skin's upstreams
may point at (read only), and a URL on any other host is refused there in the operator's language;
nothing changes on any instance, and the attempt is in the trail (docs/allowed-hosts.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.e2e.console.conftest import ConsoleTab, admin_api, upstream_urls
from tests.support.cluster import Cluster

pytestmark = pytest.mark.redis

REFUSED = "El despliegue no permite que los upstreams de este skin apunten a este host."


def test_an_operator_cannot_point_an_upstream_at_a_host_outside_the_list(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    version = admin_api(cluster, 0, "GET", "/admin/api/instances").json()["current"]
    before = upstream_urls(cluster, "capi")
    otto = tabs(1).signed_in("otto")
    dialog = otto.change_dialog("capi")
    allowed = dialog.get_by_test_id("allowed-hosts")
    expect(allowed).to_contain_text("Sus upstreams solo pueden apuntar a estos hosts (los fija el despliegue")
    expect(allowed).to_contain_text(cluster.sandbox.url.removeprefix("http://"))  # its own, from the skins file
    expect(allowed).to_contain_text("*.example")  # the tests' BFF_ALLOWED_HOSTS

    dialog.get_by_label("Nueva URL base").fill("https://cms.elsewhere.invalid/v2")
    dialog.get_by_test_id("change-preview").click()
    expect(dialog.get_by_test_id("url-error")).to_have_text(REFUSED)
    expect(dialog.get_by_test_id("write-preview")).to_have_count(0)
    expect(dialog.get_by_label("Nueva URL base")).to_have_value("https://cms.elsewhere.invalid/v2")
    otto.screenshot("allowed-hosts-refused")

    assert admin_api(cluster, 2, "GET", "/admin/api/instances").json()["current"] == version
    assert upstream_urls(cluster, "capi") == before
    trail = admin_api(cluster, 0, "GET", "/admin/api/audit?action=change&who=otto").json()["entries"]
    assert [(e["outcome"], e["skin"], e["target"], e["detail"]["errors"][0]["code"]) for e in trail[:1]] == [
        ("refused", "aurora", "capi", "URL_HOST_NOT_ALLOWED")
    ]
