"""A test client for the sandbox platform that speaks its transport: siteid, wsession, XSRF echo."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.testing import TestClient

from sandbox.app import SandboxSettings, create_app
from tests.support.browser import xsrf_echo

DEMO = {"site": "aurora", "login": "demo1", "password": "demo123"}
CARD_DEPOSIT = {
    "paymentMethod": 326,
    "paymentType": "deposit",
    "currency": "INR",
    "amount": 1000,
    "mobileNumber": "9123456789",
    "email": "demo1@example.com",
    "city": "La Rioja",
    "street": "Calle 1",
    "postal_code": "5300",
    "type": "card",
}
"""The demo player's card deposit of 1,000 (method 326), valid as it stands."""
BANK_WITHDRAW = {
    "paymentMethod": "bank",
    "amount": 250,
    "ifsc": "SBIN0123456",
    "accountType": "Savings",
    "bankName": "State Bank",
    "nameOnAccount": "Lucia Gomez",
    "personalNumber": "123456789012",
    "address": "MG Road 1",
    "city": "Delhi",
    "state": "Delhi",
    "zip": "110001",
    "phone": "9123456789",
}
"""The demo player's bank withdrawal of 250 (`interKassaCashout`), valid as it stands."""


class PlatformClient:
    """Calls the sandbox as the gateway would: siteid on every call, the XSRF cookie echoed,
    the session id in `wsession`."""

    def __init__(self, client: TestClient[Any], site: str = "aurora") -> None:
        self.client = client
        self.site = site
        self.session: str | None = None

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"siteid": self.site, **xsrf_echo(self.client.cookies)}
        if self.session:
            headers["wsession"] = self.session
        return {**headers, **(extra or {})}

    def prime(self) -> None:
        """Any answer issues the XSRF cookie; a GET needs no token."""
        if not self.client.cookies.get("XSRF-TOKEN"):
            self.client.get("/capi/header-links", headers={"siteid": self.site})

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        self.prime()
        content = b"" if body is None else msgspec.json.encode(body)
        response = self.client.post(path, content=content, headers=self.headers(kw.pop("headers", None)), **kw)
        return response

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, headers=self.headers(kw.pop("headers", None)), **kw)

    def login(self, login: str = DEMO["login"], password: str = DEMO["password"]) -> dict[str, Any]:
        body = self.post("/api/player/login", {"login": login, "password": password}).json()
        assert body["success"], body
        self.session = body["sessionId"]
        return dict(body)


def sandbox_client(settings: SandboxSettings | None = None) -> TestClient[Any]:
    return TestClient(app=create_app(settings or SandboxSettings()))
