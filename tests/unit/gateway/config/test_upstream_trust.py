"""`UPSTREAM_CA_FILE`: an operator's platform on its own CA, over real TLS sockets and the
production pool. Without the setting its certificate is refused; with it the calls and the
console's probe are answered, and the system's CAs are still trusted beside it."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import trustme

from gateway.config.probe import probe
from gateway.config.settings import Settings
from gateway.config.trust import upstream_trust
from gateway.upstream.pools import UpstreamClients
from gateway.upstream.transport import Timeouts

pytestmark = pytest.mark.anyio
QUICK = Timeouts(connect=2.0, read=2.0)


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA(organization_name="Operator Staging CA")


@pytest.fixture
def ca_file(authority: trustme.CA, tmp_path: Path) -> Path:
    path = tmp_path / "operator-ca.pem"
    authority.cert_pem.write_to_path(str(path))
    return path


@pytest.fixture
async def platform(authority: trustme.CA) -> AsyncIterator[str]:
    """A platform behind TLS on the operator's CA, for `localhost` (SNI and name checked)."""
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost", "127.0.0.1").configure_cert(served)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 16\r\n\r\n{"success":true}')
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=served)
    yield f"https://localhost:{server.sockets[0].getsockname()[1]}"
    server.close()


def clients_for(env: dict[str, str]) -> UpstreamClients:
    """The pools as `create_app` makes them from the environment."""
    return UpstreamClients(ssl_context=upstream_trust(Settings.from_env(env).upstream_ca_file))


async def test_a_platform_on_the_operators_ca_is_refused_without_the_setting(platform: str) -> None:
    clients = clients_for({})
    try:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await clients.upstream(platform).request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
    finally:
        await clients.aclose()


async def test_with_upstream_ca_file_the_calls_and_the_consoles_probe_are_answered(
    platform: str, ca_file: Path
) -> None:
    clients = clients_for({"UPSTREAM_CA_FILE": str(ca_file)})
    try:
        answer = await clients.upstream(platform).request("POST", "/api/cashier/balance", {}, b"{}", QUICK)
        assert (answer.status, answer.body) == (200, b'{"success":true}')
        probed = await probe(platform, context=clients.ssl_context)
        assert probed.ok and probed.tls is not None and probed.tls.issuer.startswith("O=Operator Staging CA")
    finally:
        await clients.aclose()


def test_the_bundle_is_added_to_the_systems_cas_not_put_in_their_place(ca_file: Path) -> None:
    system = ssl.create_default_context().cert_store_stats()["x509_ca"]
    assert upstream_trust(ca_file).cert_store_stats()["x509_ca"] == system + 1


def test_a_missing_or_unreadable_bundle_stops_the_start_with_the_settings_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="UPSTREAM_CA_FILE: no file at"):
        Settings.from_env({"UPSTREAM_CA_FILE": str(tmp_path / "absent.pem")})
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    with pytest.raises(ValueError, match=r"UPSTREAM_CA_FILE .*garbage\.pem"):
        upstream_trust(garbage)
