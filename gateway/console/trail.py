"""The audit trail as the console reads it: filters and pages, who sees what, and the export.

Viewers and operators see the changes (change, rollback, reload, purge, revoke) without the
addresses; admins see every entry and may download them as CSV or JSON (each download an entry
of its own). Everyone may ask whether the chain holds (`/admin/api/audit/verify`): the answer
names entries by id and time only.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import time
import typing
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Request, get
from litestar.di import NamedDependency

from gateway.accounts.audit import CHANGES, Action, AuditEntry, Query, Trail
from gateway.accounts.roles import Operator
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, invalid

ACTIONS = frozenset(typing.get_args(Action))
MAX_LIMIT = 500
COLUMNS = (
    "id",
    "at",
    "action",
    "who",
    "via",
    "address",
    "outcome",
    "skin",
    "target",
    "reason",
    "before",
    "after",
    "detail",
    "prev",
    "hash",
)
FILTERS = ("action", "who", "skin", "since", "until")
"""The query parameters an export's entry names (what was exported)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A spreadsheet reads a cell starting so as a formula (OWASP, CSV injection): it gets a `'` first."""


def _filter_error(field: str, message: str) -> FieldError:
    return FieldError(field, "INVALID_FILTER", message)


def _time(text: str | None, field: str, errors: list[FieldError]) -> int | None:
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        errors.append(_filter_error(field, "Use an ISO 8601 time, e.g. 2026-11-26T10:00:00Z"))
        return None
    return int((when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp() * 1000)


def query_of(params: Any, operator: Operator, limit: int | None = None) -> Query | list[FieldError]:
    """The query the request's parameters ask for, within what the operator may see."""
    errors: list[FieldError] = []
    action = params.get("action") or None
    if action is not None and action not in ACTIONS:
        errors.append(_filter_error("action", f"Actions are {', '.join(sorted(ACTIONS))}"))
    raw_limit = params.get("limit") or "100"
    if limit is None and not (raw_limit.isdigit() and 1 <= int(raw_limit) <= MAX_LIMIT):
        errors.append(_filter_error("limit", f"A limit is 1 to {MAX_LIMIT}"))
    before = params.get("before") or None
    if before is not None and not all(part.isdigit() for part in before.split("-", 1)):
        errors.append(_filter_error("before", "Use the `next` of the previous page"))
    since, until = _time(params.get("since"), "since", errors), _time(params.get("until"), "until", errors)
    if errors:
        return errors
    actions = frozenset({action}) if action else None
    if not operator.may("admin"):
        actions = (actions or CHANGES) & CHANGES
    return Query(
        actions,
        params.get("who") or None,
        params.get("skin") or None,
        since,
        until,
        before,
        limit if limit is not None else int(raw_limit),
    )


class AuditPage(msgspec.Struct):
    """A page of the trail, newest first; `next`: the id to ask for the page after it (None: the last)."""

    entries: list[AuditEntry]
    next: str | None


def _shown(entry: AuditEntry, operator: Operator) -> AuditEntry:
    """An entry as this operator may read it: the address only to admins."""
    return entry if operator.may("admin") else msgspec.structs.replace(entry, address=None)


@get("/admin/api/audit", opt={"role": "viewer"})
async def entries(
    request: Request[Any, Any, Any], operator: NamedDependency[Operator], audit: NamedDependency[Trail]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    query = query_of(request.query_params, operator)
    if isinstance(query, list):
        return invalid(ctx, query)
    found, after = await audit.page(query) if query.actions != frozenset() else ([], None)
    body = AuditPage([_shown(entry, operator) for entry in found], after)
    return Outgoing.json(200, body, ctx, (b"cache-control", b"no-store"))


@get("/admin/api/audit/export", opt={"role": "admin"})
async def export(
    request: Request[Any, Any, Any], operator: NamedDependency[Operator], audit: NamedDependency[Trail]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    kind = request.query_params.get("format") or "csv"
    query = query_of(request.query_params, operator, limit=MAX_LIMIT)
    if kind not in EXPORTS:
        query = [_filter_error("format", "Formats are csv and json")]
    if isinstance(query, list):
        return invalid(ctx, query)
    media_type, render = EXPORTS[kind]
    asked = {name: request.query_params[name] for name in FILTERS if request.query_params.get(name)}
    detail = {"format": kind, **asked}
    await audit.record(AuditEntry("export", operator.name, operator.via, operator.address, "ok", detail=detail))
    name = f"audit-{time.strftime('%Y%m%d-%H%M', time.gmtime())}.{kind}"
    headers = [
        (b"content-type", media_type),
        (b"content-disposition", f'attachment; filename="{name}"'.encode()),
        (b"x-request-id", ctx.request_id.encode("latin-1")),
        (b"cache-control", b"no-store"),
    ]
    return Outgoing(200, headers, chunks=render(_every(audit, query)))


@get("/admin/api/audit/verify", opt={"role": "viewer"})
async def verify(
    request: Request[Any, Any, Any], operator: NamedDependency[Operator], audit: NamedDependency[Trail]
) -> Outgoing:
    """Whether every kept entry links to the one before: up to which entry, or the first broken
    link (which is itself recorded, once, as `trail-altered`, naming who found it)."""
    verdict = await audit.verify()
    if (broken := verdict.broken) is not None:
        found = msgspec.to_builtins(broken)
        event = hashlib.sha256(msgspec.json.encode(found)).hexdigest()
        entry = AuditEntry("trail-altered", operator.name, operator.via, operator.address, "failed", detail=found)
        await audit.record_once(entry, event)
    ctx = RequestContext.of(request.scope)
    return Outgoing.json(200, msgspec.to_builtins(verdict), ctx, (b"cache-control", b"no-store"))


async def _every(audit: Trail, query: Query) -> AsyncIterator[AuditEntry]:
    while True:
        found, after = await audit.page(query)
        for entry in found:
            yield entry
        if after is None:
            return
        query = dataclasses.replace(query, before=after)


def _cell(value: Any) -> str:
    text = "" if value is None else value if isinstance(value, str) else msgspec.json.encode(value).decode()
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_row(values: list[Any]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerow([_cell(value) for value in values])
    return out.getvalue().encode()


async def _csv(found: AsyncIterator[AuditEntry]) -> AsyncIterator[bytes]:
    yield _csv_row(list(COLUMNS))
    async for entry in found:
        yield _csv_row([getattr(entry, column) for column in COLUMNS])


async def _json(found: AsyncIterator[AuditEntry]) -> AsyncIterator[bytes]:
    first = True
    yield b"["
    async for entry in found:
        yield (b"\n" if first else b",\n") + msgspec.json.encode(entry)
        first = False
    yield b"\n]\n"


EXPORTS: dict[str, tuple[bytes, Callable[[AsyncIterator[AuditEntry]], AsyncIterator[bytes]]]] = {
    "csv": (b"text/csv; charset=utf-8", _csv),
    "json": (b"application/json", _json),
}
HANDLERS = [entries, export, verify]
