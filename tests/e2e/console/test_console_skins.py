"""Changes scoped to the skins they touch, in the browser: two operators on two instances, each
changing another skin from the same configuration version, both succeed and both changes are live
on every instance; the history says who changed which skin."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Locator, expect

from tests.e2e.console.conftest import CONSOLE_DIST, OPERATORS, PASSWORD, ConsoleTab, other_url, upstream_urls
from tests.support.cluster import TALLY, Cluster
from tests.support.console import SECRETS, hashes, write_operators
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """The console's cluster with a second skin (`tally`) beside aurora."""
    if not (CONSOLE_DIST / "index.html").is_file():
        pytest.skip("the console is not built (make spa)")
    workdir = tmp_path_factory.mktemp("console-skins")
    operators = write_operators(workdir / "operators.toml", OPERATORS, PASSWORD)  # type: ignore[arg-type]
    env = {"OPERATORS_FILE": str(operators), "AUDIT_FILE": str(workdir / "audit")}
    never = [*SECRETS, PASSWORD["olga"]]
    with cluster_running(workdir, env=env, extra_skins=TALLY, never=lambda: [*never, *hashes()]) as running:
        yield running


def change_dialog(tab: ConsoleTab, skin: str, upstream: str) -> Locator:
    tab.upstream(upstream, skin).get_by_test_id("change-upstream").click()
    return tab.page.get_by_test_id("change-dialog")


def test_two_operators_changing_two_skins_from_one_version_both_succeed(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    otto, olga = tabs(0).signed_in("otto"), tabs(2).signed_in("olga")
    ottos, olgas = change_dialog(otto, "aurora", "capi"), change_dialog(olga, "tally", "capi")
    url = other_url(cluster)
    otto.preview(ottos, url)
    olga.preview(olgas, url)  # both previews made from the same configuration version
    otto.apply(ottos, "aurora's CMS to the new host")
    expect(ottos.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")

    expect(olgas.get_by_test_id("write-stale")).to_have_count(0)
    olga.apply(olgas, "tally's CMS to the new host")
    expect(olgas.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")
    expect(olgas.get_by_test_id("write-conflict")).to_have_count(0)
    assert upstream_urls(cluster, "capi", "aurora") == [url] * 3
    assert upstream_urls(cluster, "capi", "tally") == [url] * 3

    olgas.get_by_test_id("write-done").click()
    olga.go("history")
    versions = olga.page.get_by_test_id("history-version")
    newest, before = versions.nth(0), versions.nth(1)
    expect(newest).to_contain_text("por olga (consola)")
    expect(newest.get_by_test_id("changes-diff")).to_contain_text("tally")
    expect(before).to_contain_text("por otto (consola)")
    expect(before.get_by_test_id("changes-diff")).to_contain_text("aurora")
