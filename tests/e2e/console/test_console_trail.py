"""The trail's chain on the console's audit screen, against a gateway in file mode (no Redis: the
trail is `AUDIT_FILE`): "verified up to" an entry, then a byte changed in the file by hand
shown as a red "altered at" line naming the entry; the date filters written in the console's
language in a browser set to another; at 390, 768 and 1366 px without overflow."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.console.conftest import CONSOLE_DIST, CONSOLE_KEYS, ConsoleTab
from tests.e2e.layout import describe, run_checks
from tests.support.cluster import gateway_process
from tests.support.console import ADMIN_TOKEN, SECRETS, write_operators
from tests.support.stack import free_port

WIDTHS = (390, 768, 1366)


@pytest.fixture(scope="module")
def file_mode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    if not (CONSOLE_DIST / "index.html").is_file():
        pytest.skip("the console is not built (make spa)")
    workdir = tmp_path_factory.mktemp("trail-e2e")
    audit_file, admin_port = workdir / "audit.jsonl", free_port()
    env = {
        **os.environ,
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "SECRET_KEY": "trail-secret",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "ADMIN_PORT": str(admin_port),
        "OPERATORS_FILE": str(write_operators(workdir / "operators.toml")),
        "AUDIT_FILE": str(audit_file),
        "CONFIG_HISTORY_FILE": str(workdir / "config-history.jsonl"),
    }
    env.pop("REDIS_URL", None)
    port = free_port()
    gateway = gateway_process(workdir, env, port=port)
    gateway.start("/bff/health")
    yield f"http://127.0.0.1:{admin_port}", audit_file
    gateway.stop()
    log = gateway.log.read_text()
    assert all(secret not in log for secret in SECRETS) and '"status":500' not in log


def tab(browser: Browser, browser_context_args: dict[str, Any], url: str, width: int) -> ConsoleTab:
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": width, "height": 900}, "locale": "en-US"}
    )
    page = context.new_page()
    page.add_init_script("localStorage.setItem('console-locale', 'es')")  # the console in Spanish, the browser not
    return ConsoleTab(page, url)


def layout_problems(console: ConsoleTab, where: str) -> list[str]:
    return [f"{where}: {describe(p)}" for p in run_checks(console.page, CONSOLE_KEYS)]


def test_the_audit_screen_shows_the_chain_verified_then_where_the_file_was_altered(
    browser: Browser, browser_context_args: dict[str, Any], file_mode: tuple[str, Path]
) -> None:
    url, audit_file = file_mode
    problems: list[str] = []
    for width in WIDTHS:
        console = tab(browser, browser_context_args, url, width).signed_in("ada", "audit")
        verified = console.page.get_by_test_id("trail-verified")
        expect(verified).to_contain_text("Auditoría verificada hasta")
        since = console.page.get_by_test_id("audit-filters").get_by_label("Desde")
        expect(since).to_have_attribute("placeholder", "26/11/2026, 09:05")  # day first, as Spanish writes it
        since.fill("31/02/2026")
        console.page.get_by_test_id("audit-filter").click()
        expect(console.page.get_by_test_id("since-error")).to_contain_text("Escribe la fecha y la hora como")
        problems += layout_problems(console, f"verified at {width}px")
        console.screenshot(f"trail-verified-{width}")
        console.page.context.close()
    lines = audit_file.read_bytes().splitlines()
    assert b'"who":"ada"' in lines[0], lines[0]
    audit_file.write_bytes(b"\n".join([lines[0].replace(b'"who":"ada"', b'"who":"adb"'), *lines[1:]]) + b"\n")
    for width in WIDTHS:
        console = tab(browser, browser_context_args, url, width).signed_in("ada", "audit")
        altered = console.page.get_by_test_id("trail-altered")
        expect(altered).to_contain_text("Auditoría alterada en")
        expect(altered).to_contain_text("línea 1: la entrada fue editada")
        expect(altered).to_have_class("notice notice--error")  # the console's red
        problems += layout_problems(console, f"altered at {width}px")
        console.screenshot(f"trail-altered-{width}")
        console.page.context.close()
    assert problems == []
