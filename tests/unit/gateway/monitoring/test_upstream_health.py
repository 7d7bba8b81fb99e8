"""Each upstream's health on the overview and in `/metrics` (gateway/monitoring/health.py): a
documented call held to its contract by default, or the skins file's own check (`[skins.health]`,
validated as the file loads); a 404 or an HTML page is down, with why. Readiness still asks only
for an HTTP answer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import msgspec
import pytest
import respx

from gateway.app import create_app
from gateway.config import skins
from gateway.config.skins import SkinsFileError
from gateway.edge.entry import FrontDoor
from tests.support.gateway import UPSTREAM, operator_on
from tests.support.gateway import test_settings as gateway_settings
from tests.support.healthy import ANSWERS, healthy
from tests.support.respx_platform import RespxPlatform
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio

TOKEN = "upstream-health-admin-token"
PAGE = "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body>...</body></html>"


def skins_file(path: Path, platform: str, health: str = "") -> Path:
    path.write_text(
        '[[skins]]\nid = "aurora"\nsite_id = "aurora"\nname = "Aurora"\nhosts = ["aurora.test"]\ncurrency = "INR"\n'
        f'[skins.upstreams]\napi = "{platform}"\ncapi = "{platform}/cms"\nsbapi = "{platform}"\nrest = "{platform}"\n'
        + health
    )
    return path


@dataclass
class Admin:
    router: respx.Router
    ops: httpx.AsyncClient
    app: FrontDoor

    async def health(self) -> dict[str, dict[str, object]]:
        overview = (await self.ops.get("/admin/api/overview")).json()
        return {u["name"]: u["health"] for u in overview["skins"][0]["upstreams"]}


@pytest.fixture
def router() -> respx.Router:
    return respx.Router(base_url=UPSTREAM, assert_all_called=False)


@pytest.fixture
async def admin(router: respx.Router, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Admin]:
    platform = RespxPlatform(router, base_url=UPSTREAM)
    platform.port = free_port()
    health = getattr(request, "param", "")
    app = create_app(
        gateway_settings(skins_file=skins_file(tmp_path / "skins.toml", platform.url, health), admin_token=TOKEN)
    )
    async with platform, operator_on(app, TOKEN) as ops:
        yield Admin(router, ops, app)
    await app.gateway.clients.aclose()


async def test_a_base_url_answering_404_or_a_page_is_down_and_says_why(admin: Admin) -> None:
    routes = healthy(admin.router)
    admin.router.get("/cms/capi/header-links").mock(
        return_value=httpx.Response(404, text=PAGE, headers={"content-type": "text/html"})
    )
    admin.router.get("/").mock(return_value=httpx.Response(200, text=PAGE, headers={"content-type": "text/html"}))
    routes["api"].mock(return_value=httpx.Response(200, text=PAGE, headers={"content-type": "text/html"}))
    health = await admin.health()
    assert health["capi"]["status"] == "down" and health["capi"]["detail"] == "headerLinks: HTTP 404 (text/html)"
    assert health["api"] == {**health["api"], "status": "down", "detail": "getCountries: answered text/html, not JSON"}
    assert health["sbapi"]["status"] == "up" and health["sbapi"]["detail"] == "HTTP 200 (sportsList)"
    assert health["rest"]["status"] == "up" and health["rest"]["detail"] == "HTTP 200 (vivoLaunch)"
    assert routes["sbapi"].calls.last.request.headers["siteid"] == "aurora"
    metrics = (await admin.ops.get("/metrics")).text
    assert 'bff_upstream_up{skin="aurora",upstream="capi"} 0.0' in metrics
    assert 'bff_upstream_up{skin="aurora",upstream="sbapi"} 1.0' in metrics
    status = (await admin.ops.get("/admin/status")).json()
    assert all(u["up"] for u in status["upstreams"]), "readiness still asks only for an HTTP answer"


HEALTH = """
[skins.health]
capi = { path = "/capi/faqs?filters[locale][$eq]=pt" }
api = { path = "/status", status = 204 }
"""


@pytest.mark.parametrize("admin", [HEALTH], indirect=True)
async def test_the_skins_file_says_how_an_upstream_is_checked(admin: Admin) -> None:
    healthy(admin.router)
    faqs = {"data": [], "meta": {"pagination": {"page": 1, "pageSize": 25, "pageCount": 1, "total": 0}}}
    asked = admin.router.get("/cms/capi/faqs").mock(return_value=httpx.Response(200, json=faqs))
    status = admin.router.get("/status").mock(return_value=httpx.Response(204))
    health = await admin.health()
    assert (
        health["capi"]["detail"] == "HTTP 200 (faqs)"
        and asked.calls.last.request.url.params["filters[locale][$eq]"] == "pt"
    )
    assert health["api"]["status"] == "up" and health["api"]["detail"] == "HTTP 204 (/status)"
    status.mock(return_value=httpx.Response(200))
    await admin.ops.get("/admin/api/overview")  # within the 5 s the last round is shown again
    assert status.call_count == 1


def test_a_health_check_the_skins_file_cannot_have_is_named() -> None:
    base = skins.builtin(UPSTREAM).all[0]
    data = {"skins": [{**msgspec.to_builtins(base), "health": {}}]}
    cases = {
        '{"capi": {"path": "/api/player/getProfile"}}': "skins[aurora].health.capi.path: getProfile is a call of api",
        '{"api": {"path": "/api/player/getProfile"}}': "getProfile needs a player or changes something",
        '{"api": {"path": "/api/affiliateHistory/getHitCountSummary"}}': "affiliateHit needs a player or changes",
        '{"sbapi": {"path": "/capi/not-a-route"}}': "health.sbapi.path: /capi/not-a-route is under /capi/",
        '{"api": {"path": "status"}}': "$.skins[0].health.api.path",
        '{"api": {"path": "/status", "status": 700}}': "$.skins[0].health.api.status",
        '{"wallet": {"path": "/status"}}': "wallet",
    }
    for given, said in cases.items():
        data["skins"][0]["health"] = msgspec.json.decode(given)
        with pytest.raises(SkinsFileError) as refused:
            skins.parse(data, "skins.toml")
        assert said in str(refused.value), (given, str(refused.value))
    data["skins"][0]["health"] = {"capi": {"path": "/capi/home-banners"}, "api": {"path": "/healthz"}}
    assert skins.parse(data).all[0].health.of("capi") is not None


async def test_the_overview_counts_the_answers_that_broke_their_contract(admin: Admin) -> None:
    healthy(admin.router)
    admin.router.get("/cms/capi/header-links").mock(return_value=httpx.Response(200, json=ANSWERS["headerLinks"]))
    breaches = admin.app.gateway.metrics.contract_breaches  # as the proxied path counts its 502s
    breaches.labels("aurora", "balance").inc(12)
    breaches.labels("aurora", "getProfile").inc()
    overview = (await admin.ops.get("/admin/api/overview")).json()
    assert overview["contractBreaches"] == {"scope": "instance"}, "this process's own counts"
    assert overview["skins"][0]["contractBreaches"] == [
        {"route": "balance", "count": 12},
        {"route": "getProfile", "count": 1},
    ]
