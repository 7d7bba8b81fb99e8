"""Where the sandbox is, said once: `--with-sandbox` refuses a SANDBOX_URL it would ignore, and a
skins file's `{sandbox}` follows the sandbox's port instead of pointing at whatever listens on 8001."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gateway.app import create_app
from gateway.config import skins
from gateway.config.settings import Settings

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "deploy" / "skins.example.toml"
MOVED = "http://127.0.0.1:9101"


def test_with_sandbox_and_sandbox_url_is_refused_naming_both() -> None:
    env = {**os.environ, "SANDBOX_URL": "http://127.0.0.1:9001"}
    ran = subprocess.run(
        [sys.executable, "-m", "gateway", "--with-sandbox", "--port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode != 0
    assert "SANDBOX_URL" in ran.stderr and "--with-sandbox" in ran.stderr
    assert "http://127.0.0.1:9001" not in ran.stderr + ran.stdout  # named, never echoed
    assert "serving" not in ran.stdout


def test_the_example_skins_file_follows_the_sandbox_url() -> None:
    aurora, pampa = skins.load(EXAMPLE, MOVED).all
    assert {aurora.upstreams.api, aurora.upstreams.rest, pampa.upstreams.capi, pampa.upstreams.sbapi} == {MOVED}
    assert aurora.frame_hosts == [MOVED] and pampa.frame_hosts == [MOVED]
    assert aurora.sportsbook_url == f"{MOVED}/_sandbox/game/bti/sportsbook"
    settings = [line for line in EXAMPLE.read_text().splitlines() if not line.startswith("#")]
    assert not [line for line in settings if ":8001" in line]  # no sandbox port written in a skin


def test_without_a_sandbox_url_the_placeholder_is_the_default_sandbox() -> None:
    assert skins.load(EXAMPLE).all[0].upstreams.api == skins.LOCAL_SANDBOX == Settings().sandbox_url


def test_the_gateway_fills_the_placeholder_from_its_settings() -> None:
    """What `--with-sandbox --sandbox-port 9101` does: its settings' sandbox URL reaches the skins file."""
    app = create_app(Settings(production=False, secret_key="x", skins_file=EXAMPLE, sandbox_url=MOVED))
    assert {skin.upstreams.api for skin in app.gateway.config.skins.all} == {MOVED}
