"""`python -m gateway operators ...` in process, its passwords fed to `getpass`: what it writes to
the operators file, what it refuses, and what it prints."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from gateway.accounts.operators import read, token_digest
from gateway.console import cli


class Terminal:
    """What the operator types at each `getpass` prompt, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.typed: list[str] = []
        self.prompts: list[str] = []
        self._lock = threading.Lock()
        monkeypatch.setattr("getpass.getpass", self._getpass)
        monkeypatch.setattr(cli, "has_terminal", lambda: True)

    def _getpass(self, prompt: str) -> str:
        with self._lock:
            self.prompts.append(prompt)
            return self.typed.pop(0)

    def types(self, *passwords: str) -> None:
        self.typed.extend(passwords)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Terminal]:
    yield Terminal(monkeypatch)


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    file = tmp_path / "conf" / "operators.toml"
    monkeypatch.setenv("OPERATORS_FILE", str(file))
    monkeypatch.setenv("AUDIT_FILE", str(tmp_path / "audit.jsonl"))
    monkeypatch.delenv("REDIS_URL", raising=False)
    return file


def test_adding_an_operator_writes_an_argon2id_hash_to_a_private_file(
    path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.types("correct horse battery", "correct horse battery")
    assert cli.main(["add", "alice", "--role", "operator"]) == 0
    account = read(path).accounts["alice"]
    assert account.role == "operator" and PasswordHasher().verify(account.password or "", "correct horse battery")
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert terminal.prompts == ["Password for alice: ", "The same password again: "]
    out = capsys.readouterr().out
    assert "added alice (operator)" in out and "correct horse" not in out and "$argon2" not in out
    assert [p.name for p in path.parent.iterdir()] == ["operators.toml"], "no temporary file left behind"


def test_a_password_typed_differently_or_too_short_changes_nothing(
    path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.types("correct horse battery", "correct horse battry")
    assert cli.main(["add", "alice", "--role", "admin"]) == 1
    terminal.types("short")
    assert cli.main(["add", "alice", "--role", "admin"]) == 1
    assert not path.exists()
    err = capsys.readouterr().err
    assert "the two passwords differ" in err and "at least 12 characters" in err


def test_passwd_role_remove_and_list(path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]) -> None:
    terminal.types(*["first password 1"] * 2, *["password of b0-b 2"] * 2)
    assert cli.main(["add", "alice", "--role", "viewer"]) == 0
    assert cli.main(["--file", str(path), "add", "bob", "--role", "viewer"]) == 0
    old = read(path).accounts["alice"].password
    terminal.types("second password 2!", "second password 2!")
    assert cli.main(["passwd", "alice"]) == 0
    new = read(path).accounts["alice"].password
    assert new != old and PasswordHasher().verify(new or "", "second password 2!")
    assert cli.main(["role", "alice", "--role", "admin", "--file", str(path)]) == 0
    assert read(path).accounts["alice"].role == "admin" and read(path).accounts["bob"].role == "viewer"
    assert cli.main(["add", "alice", "--role", "viewer"]) == 1, "exists: passwd is the way"
    assert cli.main(["remove", "bob"]) == 0 and "bob" not in read(path).accounts
    assert cli.main(["remove", "bob"]) == 1 and cli.main(["passwd", "nobody"]) == 1
    capsys.readouterr()
    assert cli.main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "alice" in listed and "admin" in listed and "$argon2" not in listed


def test_a_token_is_printed_once_and_only_its_digest_kept(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["token", "deploy-bot", "--role", "operator"]) == 0
    token = capsys.readouterr().out.splitlines()[1]
    assert len(token) >= 40 and token not in path.read_text()
    roster = read(path)
    assert roster.tokens[token_digest(token)].name == "deploy-bot"
    assert cli.main(["token", "deploy-bot", "--role", "viewer"]) == 1, "replacing a token says so"
    assert cli.main(["token", "deploy-bot", "--role", "viewer", "--rotate"]) == 0
    assert token_digest(token) not in read(path).tokens and len(read(path).tokens) == 1
    assert cli.main(["token", "pampa-bot", "--role", "operator", "--skins", "pampa"]) == 0
    assert [t.skins for t in read(path).tokens.values() if t.name == "pampa-bot"] == [("pampa",)]


def test_names_are_checked_and_shared_by_operators_and_tokens(path: Path, terminal: Terminal) -> None:
    assert cli.main(["token", "Deploy Bot", "--role", "viewer"]) == 1
    assert cli.main(["token", "ci", "--role", "viewer"]) == 0
    terminal.types(*["a long password 1"] * 2)
    assert cli.main(["add", "ci", "--role", "viewer"]) == 1, "the audit must tell them apart"


def test_a_broken_file_is_left_for_a_person_to_fix(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path.parent.mkdir(parents=True)
    path.write_text("[[operators]]\nname = ")
    assert cli.main(["token", "ci", "--role", "viewer"]) == 1
    assert path.read_text() == "[[operators]]\nname = " and "not valid TOML" in capsys.readouterr().err


def test_runs_at_once_lose_no_change(path: Path, terminal: Terminal) -> None:
    names = [f"op{n}" for n in range(6)]
    terminal.types(*["the same password"] * 2 * len(names))
    results: list[int] = []
    threads = [
        threading.Thread(target=lambda n=n: results.append(cli.main(["add", n, "--role", "viewer"]))) for n in names
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [0] * len(names) and sorted(read(path).accounts) == names


def test_the_file_needs_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPERATORS_FILE", raising=False)
    with pytest.raises(SystemExit):
        cli.main(["list"])


def _trail(path: Path) -> list[dict[str, object]]:
    """The CLI's audit entries (`AUDIT_FILE` beside the operators file's folder)."""
    audit = path.parent.parent / "audit.jsonl"
    return [json.loads(line) for line in audit.read_text().splitlines()] if audit.exists() else []


def test_a_password_from_a_pipe_with_password_stdin(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    monkeypatch.setattr("sys.stdin", io.StringIO("provisioned password 9\n"))
    assert cli.main(["add", "alice", "--role", "viewer", "--password-stdin"]) == 0
    assert PasswordHasher().verify(read(path).accounts["alice"].password or "", "provisioned password 9")
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert cli.main(["passwd", "alice", "--password-stdin"]) == 1, "a weak password is refused from a pipe too"
    [entry] = _trail(path)
    assert (entry["action"], entry["via"], entry["target"]) == ("operator-add", "cli", "alice")
    assert "provisioned" not in json.dumps(entry) and "argon2" not in json.dumps(entry)


def test_without_a_terminal_one_clear_line_and_exit_2(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert cli.main(["add", "alice", "--role", "viewer"]) == cli.NO_TERMINAL
    assert not path.exists()


def test_a_real_run_with_no_terminal_never_shows_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "OPERATORS_FILE": str(tmp_path / "operators.toml"), "AUDIT_FILE": str(tmp_path / "a.jsonl")}
    env.pop("REDIS_URL", None)
    ran = subprocess.run(
        [sys.executable, "-m", "gateway", "operators", "add", "alice", "--role", "viewer"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
        timeout=60,
    )
    assert ran.returncode == 2
    assert ran.stderr.strip().splitlines() == [
        "operators: no terminal to ask the password at; pipe it in with --password-stdin (or use --link)"
    ]


def test_skins_disable_enable_sessions_and_links_are_written_and_audited(
    path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.types(*["first password 1"] * 2)
    assert cli.main(["add", "ada", "--role", "admin"]) == 0
    capsys.readouterr()
    assert cli.main(["add", "pia", "--role", "operator", "--skins", "pampa", "--link"]) == 0
    link = capsys.readouterr().out.splitlines()[1]
    assert link.startswith("/admin/welcome#") and link.split("#")[1] not in path.read_text()
    pia = read(path).accounts["pia"]
    assert pia.skins == ("pampa",) and pia.password is None and pia.link_sha256 == token_digest(link.split("#")[1])
    assert cli.main(["skins", "pia", "pampa", "aurora"]) == 0
    assert read(path).accounts["pia"].skins == ("aurora", "pampa")
    assert cli.main(["skins", "pia"]) == 0 and read(path).accounts["pia"].skins == ()
    assert cli.main(["skins", "pia", "Not A Skin"]) == 1
    assert cli.main(["disable", "pia"]) == 0 and read(path).accounts["pia"].disabled
    assert cli.main(["enable", "pia"]) == 0 and not read(path).accounts["pia"].disabled
    before = read(path).accounts["pia"].sessions_after
    assert cli.main(["end-sessions", "pia"]) == 0 and read(path).accounts["pia"].sessions_after > before
    assert cli.main(["link", "pia"]) == 0
    actions = [e["action"] for e in _trail(path)]
    assert actions == [
        "operator-add",
        "operator-add",
        "operator-skins",
        "operator-skins",
        "operator-disable",
        "operator-enable",
        "operator-sessions-ended",
        "operator-link",
    ]
    assert all(e["via"] == "cli" and e["outcome"] == "ok" for e in _trail(path))
    assert link.split("#")[1] not in json.dumps(_trail(path))


def test_the_last_admin_cannot_be_demoted_disabled_or_removed(
    path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.types(*["first password 1"] * 2)
    assert cli.main(["add", "ada", "--role", "admin"]) == 0
    for command in (["role", "ada", "--role", "operator"], ["disable", "ada"], ["remove", "ada"]):
        assert cli.main(command) == 1
        assert "last admin" in capsys.readouterr().err
    assert read(path).accounts["ada"].role == "admin" and not read(path).accounts["ada"].disabled
