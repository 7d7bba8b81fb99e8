"""Debian's nginx in front of the sandbox, as an operator's platform is really served: gzip on
JSON (nginx compresses, chunked), keep-alive connections closed early (`keepalive_requests 3`,
`keepalive_timeout 1s` toward its client, the gateway), plain http or TLS on a CA the test makes,
and a load balancer's sticky cookie whose value changes with every connection nginx accepts.

nginx runs as a child process of the test (`daemon off`), with its pid, logs and temp files in
its own directory; it is skipped when not installed, or fails when `REQUIRE_NGINX=1` (CI).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

from tests.support.stack import free_port

DEBIAN_NGINX = Path("/usr/sbin/nginx")
"""Where Debian installs it: not on a non-root user's PATH."""
STICKY_COOKIE = "SERVERID"
"""The balancer's cookie (as HAProxy names it): `b<connection number>`, set on every answer."""
KEEPALIVE = "keepalive_requests 3;\n  keepalive_timeout 1s;"
GZIP = """gzip on;
  gzip_proxied any;
  gzip_min_length 20;
  gzip_types application/json text/plain text/css application/javascript;"""


def require_nginx() -> str:
    """The nginx binary; else the test is skipped, or fails under `REQUIRE_NGINX=1`."""
    found = shutil.which("nginx") or (str(DEBIAN_NGINX) if os.access(DEBIAN_NGINX, os.X_OK) else None)
    if found is None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("nginx is required (REQUIRE_NGINX=1) but not installed (apt-get install -y nginx)")
        pytest.skip("nginx is not installed (apt-get install -y nginx)")
    return found


@dataclass(frozen=True)
class ServerCertificate:
    """The TLS profile's certificate for 127.0.0.1 and localhost, and the CA that issued it."""

    authority: trustme.CA
    ca_file: Path
    """The CA's PEM: what the gateway is told to trust (`UPSTREAM_CA_FILE`)."""

    @classmethod
    def issue(cls, directory: Path) -> ServerCertificate:
        authority = trustme.CA(organization_name="Platform Staging CA")
        ca_file = directory / "platform-ca.pem"
        authority.cert_pem.write_to_path(str(ca_file))
        return cls(authority, ca_file)

    def write_leaf(self, directory: Path) -> tuple[Path, Path]:
        """The server's certificate chain and key, as nginx reads them."""
        leaf = self.authority.issue_cert("127.0.0.1", "localhost")
        chain, key = directory / "server.pem", directory / "server.key"
        chain.write_bytes(b"".join(pem.bytes() for pem in leaf.cert_chain_pems))
        leaf.private_key_pem.write_to_path(str(key))
        return chain, key


@dataclass
class Nginx:
    """One nginx in front of one upstream; `url` is what a skin's upstreams name."""

    url: str
    prefix: Path
    process: subprocess.Popen[bytes]

    def requests(self) -> list[dict[str, str]]:
        """The access log so far, one dict a request (see `LOG_FORMAT`)."""
        path = self.prefix / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        return [json.loads(line) for line in lines if line.strip()]

    def errors(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """SIGQUIT, nginx's graceful stop: workers finish what they serve, then exit."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)


LOG_FORMAT = (
    '{"uri":"$request_uri","status":"$status","connection":"$connection","request":"$connection_requests",'
    '"encoding":"$sent_http_content_encoding","sticky":"$cookie_' + STICKY_COOKIE + '",'
    '"setSticky":"$sticky_value","player":"$player","requestId":"$http_x_request_id","sni":"$ssl_server_name"}'
)
"""`player`: whether the call carried a platform session (`wsession`), never the id itself; `sni`:
the name the client asked for in its TLS hello (empty over plain http)."""


def configuration(prefix: Path, port: int, upstream: str, tls: tuple[Path, Path] | None) -> str:
    listen = f"listen 127.0.0.1:{port} ssl;" if tls else f"listen 127.0.0.1:{port};"
    certificate = f"ssl_certificate {tls[0]};\n    ssl_certificate_key {tls[1]};" if tls else ""
    temp = "\n  ".join(
        f"{kind}_temp_path {prefix}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 512; }}
http {{
  log_format platform escape=json '{LOG_FORMAT}';
  access_log {prefix}/access.log platform;
  {temp}
  {KEEPALIVE}
  {GZIP}
  map $connection $sticky_value {{ default "b$connection"; }}
  map $http_wsession $player {{ "" "no"; default "yes"; }}
  upstream platform {{ server {upstream.removeprefix("http://")}; keepalive 8; }}
  server {{
    {listen}
    server_name localhost 127.0.0.1;
    {certificate}
    location / {{
      proxy_pass http://platform;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header Accept-Encoding "";  # nginx compresses, as a platform's front does
      add_header Set-Cookie "{STICKY_COOKIE}=$sticky_value; Path=/; HttpOnly" always;
    }}
  }}
}}
"""


def start_nginx(upstream: str, certificate: ServerCertificate | None = None) -> Nginx:
    """nginx in front of `upstream` (`http://host:port`), over TLS when given a certificate."""
    binary = require_nginx()
    # Its own directory, open to nginx's workers (`nobody` when the test runs as root).
    prefix = Path(tempfile.mkdtemp(prefix="nginx-platform-"))
    prefix.chmod(0o711)
    port = free_port()
    tls = certificate.write_leaf(prefix) if certificate else None
    conf = prefix / "nginx.conf"
    conf.write_text(configuration(prefix, port, upstream, tls))
    log = (prefix / "stderr.log").open("wb")
    process = subprocess.Popen(
        [binary, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf), "-g", "daemon off;"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    scheme = "https" if tls else "http"
    running = Nginx(f"{scheme}://localhost:{port}", prefix, process)
    _wait_listening(running, port)
    return running


def _wait_listening(nginx: Nginx, port: int, within_s: float = 15) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if nginx.process.poll() is not None:
            detail = (nginx.prefix / "stderr.log").read_text(errors="replace") + nginx.errors()
            raise RuntimeError(f"nginx exited at start:\n{detail}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    nginx.stop()
    raise RuntimeError("nginx did not listen")
