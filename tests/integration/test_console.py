"""The console's accounts against a real gateway process (no Redis: the audit trail in a file):
the CLI driven through a pseudo-terminal adds an operator and resets a password while the
gateway runs; a broken operators file keeps the last good one; the audit trail survives a
restart."""

from __future__ import annotations

import json
import os
import pty
import select
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.cluster import Process, gateway_process
from tests.support.console import ADMIN_TOKEN, PASSWORDS, SECRETS, hashes, write_operators
from tests.support.stack import ROOT, free_port


@dataclass
class Running:
    gateway: Process
    admin_url: str
    operators_file: Path
    audit_file: Path

    def console(self) -> httpx.Client:
        return httpx.Client(base_url=self.admin_url, timeout=10)

    def signs_in(self, name: str, password: str) -> bool:
        with self.console() as client:
            return client.post("/admin/api/session", json={"name": name, "password": password}).status_code == 200

    def sign_in(self, name: str, password: str | None = None) -> httpx.Client:
        client = self.console()
        answer = client.post("/admin/api/session", json={"name": name, "password": password or PASSWORDS[name]})
        assert answer.status_code == 200, answer.text
        return client


def _gateway(workdir: Path, operators_file: Path, audit_file: Path) -> Running:
    port, admin_port = free_port(), free_port()
    env = {
        **os.environ,
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "SECRET_KEY": "console-secret",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "ADMIN_PORT": str(admin_port),
        "OPERATORS_FILE": str(operators_file),
        "AUDIT_FILE": str(audit_file),
        "SKINS_POLL_S": "0.2",
    }
    env.pop("REDIS_URL", None)
    process = gateway_process(workdir, env, port=port)
    process.start("/bff/health")
    return Running(process, f"http://127.0.0.1:{admin_port}", operators_file, audit_file)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    gateway = _gateway(tmp_path, write_operators(tmp_path / "operators.toml"), tmp_path / "var" / "audit.jsonl")
    yield gateway
    gateway.gateway.stop()
    log = gateway.gateway.log.read_text()
    for secret in [*SECRETS, *hashes(), "cedar-first-password", "cedar-second-password"]:
        assert secret not in log, "a secret in the gateway's log"


def operators_cli(*args: str, audit_file: Path, typed: tuple[str, ...] = ()) -> tuple[int, str]:
    """`python -m gateway operators ...` on a pseudo-terminal, typing `typed` at its prompts; it
    audits to the gateway's trail (`audit_file`), as on the gateway's host."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the terminal as its controlling one
        os.chdir(ROOT)
        env = {**os.environ, "AUDIT_FILE": str(audit_file)}
        env.pop("REDIS_URL", None)
        os.execve(sys.executable, [sys.executable, "-m", "gateway", "operators", *args], env)
    shown = b""
    for text in typed:
        shown += _read(fd, until=b": ")
        os.write(fd, text.encode() + b"\n")
    shown += _read(fd)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


def _read(fd: int, until: bytes | None = None, within_s: float = 30) -> bytes:
    got, deadline = b"", time.monotonic() + within_s
    while time.monotonic() < deadline and not (until and got.endswith(until)):
        if not select.select([fd], [], [], 0.2)[0]:
            continue
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child closed the terminal
            return got
        if not chunk:
            return got
        got += chunk
    return got


def _eventually(check: object, within_s: float = 5) -> None:
    deadline = time.monotonic() + within_s
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.1)


def test_the_cli_adds_an_operator_and_resets_a_password_while_the_gateway_runs(running: Running) -> None:
    file, trail = str(running.operators_file), running.audit_file
    typed = ("cedar-first-password",) * 2
    code, shown = operators_cli("add", "carol", "--role", "operator", "--file", file, audit_file=trail, typed=typed)
    assert code == 0 and "added carol (operator)" in shown, shown
    assert "Password for carol:" in shown and "cedar-first-password" not in shown, "getpass: never echoed"
    assert os.stat(running.operators_file).st_mode & 0o777 == 0o600
    _eventually(lambda: running.signs_in("carol", "cedar-first-password"))  # re-read within SKINS_POLL_S
    carol = running.sign_in("carol", "cedar-first-password")
    code, shown = operators_cli(
        "passwd", "carol", "--file", file, audit_file=trail, typed=("cedar-second-password",) * 2
    )
    assert code == 0, shown
    _eventually(lambda: carol.get("/admin/api/session").status_code == 401)  # the old password's session ends
    assert not running.signs_in("carol", "cedar-first-password")
    assert running.signs_in("carol", "cedar-second-password")
    typos = ("daylight-pass-1", "typo")
    code, shown = operators_cli("add", "dave", "--role", "viewer", "--file", file, audit_file=trail, typed=typos)
    assert code == 1 and "differ" in shown and "dave" not in running.operators_file.read_text()
    entries = [json.loads(line) for line in trail.read_text().splitlines()]
    by_cli = [(e["action"], e["target"]) for e in entries if e["via"] == "cli"]
    assert by_cli == [("operator-add", "carol"), ("operator-password", "carol")], "in the gateway's own trail"
    carol.close()


def test_an_operators_file_with_a_syntax_error_keeps_the_last_good_one(running: Running) -> None:
    good = running.operators_file.read_text()
    broken = running.operators_file.with_suffix(".broken")
    broken.write_text(good.replace('role = "viewer"', 'role = "viewer'))
    broken.replace(running.operators_file)
    _eventually(lambda: "operators.rejected" in running.gateway.log.read_text())
    ada = running.sign_in("ada")  # the last good file: everyone still signs in
    rejected = ada.get("/admin/api/audit?action=operators-file-rejected").json()["entries"]
    assert rejected and "not valid TOML" in rejected[0]["detail"]
    write_operators(running.operators_file, {"ada": "admin", "erin": "viewer"}, {"erin": "erin-password-12"})
    _eventually(lambda: running.signs_in("erin", "erin-password-12"))
    assert not running.signs_in("otto", PASSWORDS["otto"]), "otto left the file"
    ada.close()


def test_the_audit_trail_survives_a_restart(running: Running, tmp_path: Path) -> None:
    otto = running.sign_in("otto")
    purge = otto.post("/admin/skins/aurora/cache/purge", headers={"x-csrf-token": otto.cookies["console-csrf"]})
    assert purge.status_code == 200
    otto.close()
    running.gateway.stop()
    again = _gateway(tmp_path, running.operators_file, running.audit_file)
    running.gateway = again.gateway
    ada = again.sign_in("ada")
    entries = ada.get("/admin/api/audit").json()["entries"]
    assert [(e["action"], e["who"]) for e in entries] == [("sign-in", "ada"), ("purge", "otto"), ("sign-in", "otto")]
    lines = [json.loads(line) for line in running.audit_file.read_text().splitlines()]
    assert [line["action"] for line in lines] == ["sign-in", "purge", "sign-in"]
    ada.close()


def test_the_console_is_not_on_the_public_listener(running: Running) -> None:
    public = running.gateway.url
    signing_in = httpx.post(public + "/admin/api/session", json={"name": "ada", "password": PASSWORDS["ada"]})
    assert signing_in.status_code in (403, 404, 405) and "console" not in signing_in.cookies
    for path in ("/admin/api/audit", "/admin/api/session", "/admin/api/audit/export"):
        answer = httpx.get(public + path, headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
        assert '"entries"' not in answer.text and '"role"' not in answer.text, path
