"""Debian's nginx serving its welcome page for every path: a base URL mistyped onto a web server
that is not the platform (a default site, a catch-all that answers 200 with HTML)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.support.stack import free_port

NGINX = Path("/usr/sbin/nginx")
DEFAULT_PAGE = Path("/usr/share/nginx/html/index.html")


@contextmanager
def nginx_default_page(folder: Path) -> Iterator[str]:
    """nginx (its own prefix, config and logs in `folder`) at the URL yielded; skips without nginx."""
    if not NGINX.exists() or not DEFAULT_PAGE.exists():
        pytest.skip("nginx is not installed")
    html = folder / "html"
    html.mkdir()
    shutil.copy(DEFAULT_PAGE, html / "index.html")
    port = free_port()
    user = "user root;\n" if os.geteuid() == 0 else ""  # a test's tmp folder is its owner's alone
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {folder}/{kind};" for kind in kinds)
    (folder / "nginx.conf").write_text(
        f"{user}worker_processes 1;\nerror_log {folder}/error.log;\npid {folder}/nginx.pid;\nevents {{}}\n"
        f"http {{ access_log off; {temp} include /etc/nginx/mime.types; gzip on;\n"
        f"  server {{ listen 127.0.0.1:{port}; root {html}; location / {{ try_files $uri /index.html; }} }} }}\n"
    )
    command = [str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline, (folder / "error.log").read_text()
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)
