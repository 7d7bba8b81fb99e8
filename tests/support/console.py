"""The operators' side of the admin listener for tests: an operators file with one operator of
each role and two automation tokens, and an operator's browser on the console."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher
from litestar import Litestar

from gateway.accounts.audit import Trail
from gateway.accounts.operators import Account, Role, RosterFile, Token, token_digest
from gateway.accounts.roster import render
from gateway.accounts.signin import Accounts
from gateway.app import admin_app
from gateway.edge.entry import FrontDoor
from tests.support.gateway import gateway_app

ADMIN_TOKEN = "console-tests-admin-token-0123456789"
PASSWORDS = {"ada": "ada-admin-password-1", "otto": "otto-operator-pass-1", "vera": "vera-viewer-pass-01"}
OPERATORS: dict[str, Role] = {"ada": "admin", "otto": "operator", "vera": "viewer"}
"""Name -> role."""
TOKENS: dict[str, tuple[Role, str]] = {
    "deploy-bot": ("operator", "deploy-bot-token-abcdefghijklmnopqrstuv"),
    "grafana": ("viewer", "grafana-token-abcdefghijklmnopqrstuvwxyz"),
}
SECRETS = [ADMIN_TOKEN, *PASSWORDS.values(), *(token for _, token in TOKENS.values())]
"""What must never appear in a log line, an answer or an audit entry (with the hashes and cookies)."""


TEST_HASHER = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
"""The test operators' passwords at a low argon2id cost (8 MiB, one pass): the gateway checks a
hash at the parameters written in it, so each of the suite's sign-ins costs a few milliseconds
of a core rather than 0.1-0.2 s at the CLI's defaults (tests/unit/gateway/accounts/
test_console_accounts.py: 23 tests in 11-14 s against 19-21 s). What the defaults guard is still
tested at their cost: the CLI's hashes, and an unknown name's check against the gateway's own."""


@functools.cache
def password_hash(password: str) -> str:
    return TEST_HASHER.hash(password)


def roster(roles: dict[str, Role] | None = None, passwords: dict[str, str] | None = None) -> RosterFile:
    roles, passwords = roles or OPERATORS, {**PASSWORDS, **(passwords or {})}
    return RosterFile(
        [Account(name, role, password_hash(passwords[name])) for name, role in roles.items()],
        [Token(name, role, token_digest(token)) for name, (role, token) in TOKENS.items()],
    )


def write_operators(path: Path, roles: dict[str, Role] | None = None, passwords: dict[str, str] | None = None) -> Path:
    """The operators file as the CLI writes it; replaced atomically (a running gateway never reads half)."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(render(roster(roles, passwords)))
    temporary.replace(path)
    return path


def hashes() -> list[str]:
    return [password_hash(password) for password in PASSWORDS.values()]


def bearer(name: str) -> dict[str, str]:
    token = ADMIN_TOKEN if name == "ADMIN_TOKEN" else TOKENS[name][1]
    return {"authorization": f"Bearer {token}"}


class Console:
    """One operator's browser on the console: its cookies kept, `X-CSRF-Token` echoed on unsafe calls."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def sign_in(self, name: str, password: str | None = None, **kw: Any) -> httpx.Response:
        given = PASSWORDS.get(name, "some-password-123") if password is None else password
        return await self.http.post("/admin/api/session", json={"name": name, "password": given}, **kw)

    def csrf(self) -> dict[str, str]:
        token = self.http.cookies.get("console-csrf")
        return {"x-csrf-token": token} if token else {}

    async def call(self, method: str, path: str, **kw: Any) -> httpx.Response:
        headers = {**(self.csrf() if method not in ("GET", "HEAD") else {}), **kw.pop("headers", {})}
        return await self.http.request(method, path, headers=headers, **kw)

    @property
    def cookie(self) -> str | None:
        return self.http.cookies.get("console")


@dataclass
class Listener:
    """A gateway's admin listener in this process (its operators file and audit file in a folder)."""

    app: FrontDoor
    admin: Litestar
    operators_file: Path
    audit_file: Path
    clients: list[httpx.AsyncClient] = field(default_factory=list)

    @property
    def accounts(self) -> Accounts:
        assert self.app.gateway.accounts is not None
        return self.app.gateway.accounts

    @property
    def audit(self) -> Trail:
        assert self.app.gateway.audit is not None
        return self.app.gateway.audit

    def browser(self, address: str = "10.1.0.1") -> Console:
        """A client of the admin listener from `address`."""
        transport = httpx.ASGITransport(app=self.admin, client=(address, 50000))  # type: ignore[arg-type]
        client = httpx.AsyncClient(transport=transport, base_url="http://admin")
        self.clients.append(client)
        return Console(client)

    async def signed_in(self, name: str, address: str = "10.1.0.1") -> Console:
        console = self.browser(address)
        answer = await console.sign_in(name)
        assert answer.status_code == 200, answer.text
        return console


@asynccontextmanager
async def admin_listener(folder: Path, **settings: Any) -> AsyncIterator[Listener]:
    operators_file = write_operators(folder / "operators.toml")
    values = {
        "admin_token": ADMIN_TOKEN,
        "operators_file": operators_file,
        "audit_file": folder / "audit.jsonl",
        "probe_upstreams": False,
        **settings,
    }
    app = gateway_app(None, **values)
    listener = Listener(app, admin_app(app), operators_file, values["audit_file"])
    try:
        yield listener
    finally:
        for client in listener.clients:
            await client.aclose()
        await app.gateway.lifecycle.settle(within_s=1)


def signed_in(url: str, name: str, password: str | None = None) -> httpx.Client:
    """An operator's console session on the admin listener at `url` (a real process): its cookies
    kept, `X-CSRF-Token` sent with every call."""
    client = httpx.Client(base_url=url, timeout=15)
    answer = client.post("/admin/api/session", json={"name": name, "password": password or PASSWORDS[name]})
    assert answer.status_code == 200, answer.text
    client.headers["x-csrf-token"] = client.cookies["console-csrf"]
    return client
