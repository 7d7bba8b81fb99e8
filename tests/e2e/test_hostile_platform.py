"""A hostile or compromised platform, met in Chromium by a signed-in player: a CMS answer that is an
HTML page with script, an uploaded document that is an SVG with script, opened as pages of the
site's own origin (a link a phisher sends), framed, and embedded; and a player's upload of an SVG.
No script runs on the player's origin: each would set a marker in the origin's storage and call the
platform as the player, and neither happens. The site still shows its own content."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Site
from tests.e2e.test_shell_and_auth import site_artifact

RUN = (
    "localStorage.setItem('pwned', document.cookie ? 'read the cookies' : 'ran');"
    "fetch('/api/player/contactUs', {method: 'POST', headers: {'X-XSRF-TOKEN':"
    " (document.cookie.match(/XSRF-TOKEN=([^;]+)/) || [])[1] || ''}, body: '{}'})"
)
"""What a script of the platform's would do as the player: mark the origin's storage, and make an
authenticated call the site itself never makes on these pages (`contactUs`, with the XSRF token)."""
HTML = f"<!DOCTYPE html><html><body><h1>Maintenance</h1><script>{RUN}</script></body></html>"
SVG = f'<svg xmlns="http://www.w3.org/2000/svg" onload="{RUN}"><script>{RUN}</script><circle r="9"/></svg>'


def answers(control: httpx.Client, route: str, body: str, kind: str) -> None:
    spec = {"body": body, "contentType": kind, "errorStatus": 200}
    control.put(f"/_sandbox/faults/{route}", json=spec).raise_for_status()


def test_what_a_hostile_platform_serves_never_runs_on_the_players_origin(site: Site, control: httpx.Client) -> None:
    page = site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("profile-name")).to_have_text("demo1")
    answers(control, "faqs", HTML, "text/html")
    answers(control, "media", SVG, "image/svg+xml")
    control.delete("/_sandbox/calls")

    cms = page.goto(site.url + "/capi/faqs?filters[locale][$eq]=es&hostile=1")
    assert cms is not None and cms.status == 502 and cms.headers["content-type"] == "application/json"
    assert "Maintenance" not in page.content()
    page.goto(site.url + "/home")
    downloads: list[str] = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    page.evaluate("location.href = '/capi/uploads/doc-hostile-1.svg'")  # a link a phisher sends
    page.wait_for_timeout(1500)
    page.goto(site.url + "/home")
    page.evaluate(
        """() => {
            for (const [tag, attribute] of [['iframe', 'src'], ['object', 'data'], ['embed', 'src'], ['img', 'src']]) {
                const node = document.createElement(tag);
                node.setAttribute(attribute, '/capi/uploads/doc-hostile-2.svg?' + tag);
                document.body.append(node);
            }
        }"""
    )
    page.wait_for_timeout(1500)  # time for any script to run
    assert page.evaluate("localStorage.getItem('pwned')") is None, "a script ran on the player's origin"
    assert control.get("/_sandbox/calls").json().get("contactUs", 0) == 0, "a script called as the player"
    assert downloads and downloads[0].endswith(".svg"), "opened as a page of the site, it is a download"

    control.delete("/_sandbox/faults")
    card = site.open("/profile").get_by_test_id("document-idProof")
    card.get_by_test_id("document-file-idProof").set_input_files(
        files=[{"name": "dni.svg", "mimeType": "image/svg+xml", "buffer": SVG.encode()}]
    )
    expect(card.get_by_role("alert")).to_contain_text("Sube un documento JPEG, PNG o PDF")
    player = control.get("/_sandbox/sites/aurora/players/demo1").json()
    assert player["documents"] == [], "the platform never kept it"
    page.goto(site.url + "/home")
    expect(page.get_by_test_id("profile-name")).to_have_text("demo1")
    expect(page.locator("img").first).to_be_visible()
    page.screenshot(path=str(site_artifact("hostile_platform_home.png")))
    assert page.evaluate("localStorage.getItem('pwned')") is None
