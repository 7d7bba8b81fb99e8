"""A browser's view of the running product over HTTP: one cookie jar, the XSRF token echoed."""

from __future__ import annotations

import httpx


class Player:
    """A browser's view of the product: one cookie jar, the XSRF token echoed."""

    def __init__(self, url: str, *, host: str | None = None, client_ip: str | None = None) -> None:
        """`host`: the skin's host name (the port is the gateway's); `client_ip`: the address a
        trusted balancer puts in X-Forwarded-For, so that many players are many clients."""
        headers = {}
        if host:
            headers["host"] = f"{host}:{httpx.URL(url).port}"
        if client_ip:
            headers["x-forwarded-for"] = client_ip
        self.http = httpx.Client(base_url=url, timeout=30, headers=headers)
        assert self.http.get("/bff/session").status_code == 200

    def xsrf(self) -> dict[str, str]:
        return {"X-XSRF-TOKEN": self.http.cookies.get("XSRF-TOKEN") or ""}

    def post(self, path: str, body: object = None, headers: dict[str, str] | None = None) -> httpx.Response:
        return self.http.post(path, json={} if body is None else body, headers={**self.xsrf(), **(headers or {})})

    def get(self, path: str, **kw: object) -> httpx.Response:
        return self.http.get(path, **kw)  # type: ignore[arg-type]

    @property
    def cookie(self) -> str:
        """The gateway's session cookie (its name differs in production)."""
        return next(value for name, value in self.http.cookies.items() if name.endswith("bff"))

    def login(self, login: str = "demo1", password: str = "demo123") -> dict[str, object]:
        answer = self.post("/api/player/login", {"login": login, "password": password})
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        assert body["success"] is True, body
        return body
