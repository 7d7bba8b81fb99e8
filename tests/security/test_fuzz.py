"""Schemathesis against the gateway's own OpenAPI document (`/bff/openapi.json`: the BFF
routes and every catalogue route): whatever a client sends, the gateway never answers 500,
and every answer is the documented one or the common error JSON.

Bounded for `make test` (FUZZ_EXAMPLES per operation, default 8); `make fuzz` runs more.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from tests.support.stack import Stack

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
LIMIT = int(os.environ.get("FUZZ_REPORT_CHARS", "3000"))


@pytest.fixture(scope="module")
def api_schema(stack: Stack) -> Any:
    return schemathesis.openapi.from_url(stack.url + "/bff/openapi.json")


@pytest.fixture(scope="module")
def visitor(stack: Stack) -> requests.Session:
    """A logged-in visitor's cookies, sent with every generated request."""
    session = requests.Session()
    session.get(stack.url + "/bff/session")
    token = session.cookies.get("XSRF-TOKEN") or ""
    answer = session.post(
        stack.url + "/api/player/login", json={"login": "demo1", "password": "demo123"}, headers={"X-XSRF-TOKEN": token}
    )
    assert answer.status_code == 200 and answer.json()["success"] is True
    return session


# One test walks every operation (Schemathesis' pytest plugin does not run on pytest 9), each
# with its own Hypothesis search; every failure is collected and reported together.
def test_no_answer_is_a_server_error_or_off_the_contract(api_schema: Any, visitor: requests.Session) -> None:
    token = visitor.cookies.get("XSRF-TOKEN") or ""
    failures: list[str] = []
    operations = 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        if operation.path in SKIPPED:
            continue
        operations += 1

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
        )
        def run(case: schemathesis.Case) -> None:
            # The generated X-XSRF-TOKEN is replaced by the session's own, or every unsafe call
            # would stop at the forgery check (tests/security/test_forgery.py tries wrong ones).
            headers = dict(case.headers or {})
            if case.method.upper() == "POST":
                headers["X-XSRF-TOKEN"] = token
            case.call_and_validate(session=visitor, headers=headers, timeout=15)

        try:
            run()
        except (Exception, BaseExceptionGroup) as failure:
            failures.append(f"{operation.method.upper()} {operation.path}: {failure}"[:LIMIT])
    assert operations > 80, "the document lists the catalogue"
    assert not failures, "\n\n".join(failures)


# Calls that would end the shared session mid-walk; the session tests cover them.
SKIPPED = {"/api/player/logout", "/api/player/updatePassword"}
