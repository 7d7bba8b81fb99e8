"""What a hostile or compromised platform sends never runs as the site: every proxied answer is
data (its type the route's, `nosniff`, a sandboxing CSP), documents a browser would render are
attachments, and an upload is the kind of file it says it is before the platform keeps it.

Found attacking the product as a CMS editor would: a CMS answer served as `text/html`, and an
uploaded document served back as SVG, ran script on the player's origin that read the XSRF cookie
and called `getProfile` as the signed-in player."""

from __future__ import annotations

import httpx
import pytest
import respx

from contracts.catalogue import ROUTES
from gateway.config.skins import builtin
from gateway.pipeline.links import ContentLinks
from gateway.runtime.metrics import Metrics
from gateway.state.outcome import Outcome
from tests.support.browser import AsyncBrowser
from tests.support.cms import banners
from tests.support.gateway import browser_on, gateway_app
from tests.support.platform import sandbox_client

pytestmark = pytest.mark.anyio
SCRIPT_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/player/getProfile")</script></svg>'
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
CSP = "default-src 'none'; sandbox"
sandbox = sandbox_client()
DOCUMENTS = {
    "text/html": b"<html><script>alert(document.cookie)</script></html>",
    "application/xhtml+xml": b'<html xmlns="http://www.w3.org/1999/xhtml"><script>1</script></html>',
    "text/xml": b"<?xml version='1.0'?><x/>",
    "application/xml": b"<?xml version='1.0'?><x/>",
    "text/javascript": b"alert(1)",
    "application/javascript": b"alert(1)",
    "text/css": b"body{}",
    "": b"<html><script>alert(1)</script></html>",
}


def inert(answer: httpx.Response) -> None:
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["content-security-policy"] == CSP


@pytest.mark.parametrize("kind", list(DOCUMENTS))
async def test_a_route_answering_a_document_is_a_502_never_passed_on(
    visitor: AsyncBrowser, upstream: respx.Router, kind: str
) -> None:
    """JSON routes (content and a player's read) and binary ones (CMS media, the captcha) alike."""
    headers = {"content-type": kind} if kind else {}
    upstream.get("/capi/header-links").respond(200, content=DOCUMENTS[kind], headers=headers)
    upstream.post("/api/player/getStats").respond(200, content=DOCUMENTS[kind], headers=headers)
    upstream.get("/capi/uploads/banner.png").respond(200, content=DOCUMENTS[kind], headers=headers)
    upstream.post("/api/player/generateCaptcha").respond(200, content=DOCUMENTS[kind], headers=headers)
    await visitor.login()
    for answer in (
        await visitor.get("/capi/header-links"),
        await visitor.post("/api/player/getStats"),
        await visitor.get("/capi/uploads/banner.png"),
        await visitor.post("/api/player/generateCaptcha"),
    ):
        assert answer.status_code == 502 and answer.json()["code"] == "UPSTREAM_CONTRACT", kind
        assert answer.headers["content-type"] == "application/json" and b"script" not in answer.content
        inert(answer)


async def test_json_typed_otherwise_goes_out_as_json(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.get("/capi/home-banners").respond(200, json=banners(1), headers={"content-type": "text/plain"})
    answer = await visitor.get("/capi/home-banners")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    assert answer.json() == banners(1)
    inert(answer)


async def test_an_uploaded_svg_is_an_attachment_that_cannot_script(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    """The CMS serves whatever its uploader chose: an SVG still shows in an `<img>` (browsers ignore
    the disposition there), but opened as a page it is a download, sandboxed, with no script run."""
    upstream.get("/capi/uploads/doc.svg").respond(200, content=SCRIPT_SVG, headers={"content-type": "image/svg+xml"})
    upstream.get("/capi/uploads/terms.pdf").respond(
        200, content=b"%PDF-1.7", headers={"content-type": "application/pdf"}
    )
    upstream.get("/capi/uploads/hero.png").respond(200, content=PNG, headers={"content-type": "image/png"})
    svg = await visitor.get("/capi/uploads/doc.svg")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert svg.headers["content-disposition"] == "attachment"
    pdf = await visitor.get("/capi/uploads/terms.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-disposition"] == "attachment"
    png = await visitor.get("/capi/uploads/hero.png")
    assert png.status_code == 200 and "content-disposition" not in png.headers and png.content == PNG
    for answer in (svg, pdf, png):
        inert(answer)


async def test_every_proxied_answer_and_refusal_is_inert(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.post("/api/cashier/balance").respond(200, json={"success": True, "values": []})
    await visitor.login()
    for answer in (
        await visitor.post("/api/cashier/balance"),
        await visitor.get("/api/not/a/route"),
        await visitor.client.post("/api/cashier/balance"),  # no XSRF token: refused
    ):
        inert(answer)


def form(content: bytes, kind: str, name: str = "id.png") -> dict[str, tuple[str, bytes, str]]:
    return {"file": (name, content, kind)}


UPLOADS = {
    "an SVG": form(SCRIPT_SVG, "image/svg+xml", "id.svg"),
    "an HTML page called a PNG": form(b"<html><script>alert(1)</script></html>", "image/png"),
    "a script called a PDF": form(b"alert(1)", "application/pdf", "id.pdf"),
    "an HTML page": form(b"<html></html>", "text/html", "id.html"),
    "a PNG called a JPEG": form(PNG, "image/jpeg", "id.jpg"),
    "no type": form(PNG, ""),
}


@pytest.mark.parametrize("case", list(UPLOADS))
async def test_an_upload_that_is_not_what_it_says_never_reaches_the_platform(
    visitor: AsyncBrowser, upstream: respx.Router, case: str
) -> None:
    uploads = upstream.post("/api/player/uploadFile").respond(200, json={"success": True})
    await visitor.login()
    refused = await visitor.client.post(
        "/api/player/uploadFile", files=UPLOADS[case], data={"docType": "1"}, headers=visitor.xsrf()
    )
    assert refused.status_code == 422, case
    assert refused.json()["errors"][0]["field"] == "file" and refused.json()["errors"][0]["code"] == "UNSUPPORTED_FILE"
    assert uploads.call_count == 0, "the platform never kept it"


@pytest.mark.parametrize(
    ("content", "kind"),
    [(PNG, "image/png"), (b"\xff\xd8\xff\xe0" + b"\0" * 32, "image/jpeg"), (b"%PDF-1.4\n", "application/pdf")],
)
async def test_a_real_document_goes_through_byte_for_byte(
    visitor: AsyncBrowser, upstream: respx.Router, content: bytes, kind: str
) -> None:
    uploads = upstream.post("/api/player/uploadFile").respond(200, json={"success": True})
    await visitor.login()
    sent = await visitor.client.post(
        "/api/player/uploadFile",
        files=form(content, kind),
        data={"docType": "1", "docNumber": "AB1"},
        headers=visitor.xsrf(),
    )
    assert sent.status_code == 200 and sent.json() == {"success": True}
    received = uploads.calls.last.request.content
    assert content in received and b'name="docNumber"' in received and received.endswith(b"--\r\n")
    inert(sent)


async def test_an_upload_without_a_file_is_a_field_error(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    uploads = upstream.post("/api/player/uploadFile").respond(200, json={"success": True})
    await visitor.login()
    refused = await visitor.client.post(
        "/api/player/uploadFile", files={"other": ("x.png", PNG, "image/png")}, headers=visitor.xsrf()
    )
    assert refused.status_code == 422 and refused.json()["errors"][0]["code"] == "NO_FILE"
    assert uploads.call_count == 0


async def test_a_poisoned_cms_link_is_blanked_before_it_is_kept_or_served(
    upstream: respx.Router, capsys: pytest.CaptureFixture[str]
) -> None:
    """For clients other than the SPA, and so that one poisoned entry is not the copy every player
    gets for its life: the link is blanked once, when the copy is made; the others are untouched."""
    answer = banners(1, 2, 3, 4)
    answer["data"][1]["routerLink"] = "/\\evil.example"
    answer["data"][2]["routerLink"] = "javascript:alert(document.cookie)"
    calls = upstream.get("/capi/home-banners").respond(200, json=answer, headers={"cache-control": "max-age=60"})
    app = gateway_app(upstream)
    async with browser_on(app) as visitor:
        first, again = await visitor.get("/capi/home-banners"), await visitor.get("/capi/home-banners")
    assert again.headers["x-cache"] == "HIT" and calls.call_count == 1
    for served in (first, again):
        links = [entry["routerLink"] for entry in served.json()["data"]]
        assert links == ["/promotions/1", "", "", "/promotions/4"]
    logged = [line for line in capsys.readouterr().out.splitlines() if "content.link_refused" in line]
    assert len(logged) == 2 and "data.1.routerLink" in logged[0] and "data.2.routerLink" in logged[1]
    assert app.gateway.metrics.links_refused.labels("aurora", "homeBanners")._value.get() == 2


def test_the_sandboxs_content_passes_the_link_rule_whole() -> None:
    """Nothing a real platform sends in the documented shapes is lost: every link of every content
    collection of every built-in skin is kept."""
    checker = ContentLinks(Metrics())
    for skin in builtin("http://127.0.0.1:8001").all:
        for route in (r for r in ROUTES if r.policy == "content" and not r.binary):
            answer = sandbox.get(route.upstream_path({}), headers={"siteid": skin.site_id})
            assert answer.status_code == 200, route.name
            outcome = Outcome(200, {"content-type": "application/json"}, answer.content)
            assert checker.checked(skin, route, outcome) is outcome, (skin.id, route.name)
