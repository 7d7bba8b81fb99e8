"""`python -m gateway operators ...` in process, its passwords fed to `getpass`: what it writes to
the operators file, what it refuses, and what it prints."""

from __future__ import annotations

import os
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
    return file


def test_adding_an_operator_writes_an_argon2id_hash_to_a_private_file(
    path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal.types("correct horse battery", "correct horse battery")
    assert cli.main(["add", "alice", "--role", "operator"]) == 0
    account = read(path).accounts["alice"]
    assert account.role == "operator" and PasswordHasher().verify(account.password, "correct horse battery")
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
    assert "the two passwords differ" in err and "12 to 1024 characters" in err


def test_passwd_role_remove_and_list(path: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]) -> None:
    terminal.types(*["first password 1"] * 2, *["password of bob 2"] * 2)
    assert cli.main(["add", "alice", "--role", "viewer"]) == 0
    assert cli.main(["--file", str(path), "add", "bob", "--role", "viewer"]) == 0
    old = read(path).accounts["alice"].password
    terminal.types("second password 2!", "second password 2!")
    assert cli.main(["passwd", "alice"]) == 0
    new = read(path).accounts["alice"].password
    assert new != old and PasswordHasher().verify(new, "second password 2!")
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
