"""The route catalogue as OpenAPI 3.1 paths: what a browser may call through the gateway.

The gateway serves these merged with its own `/bff/*` routes (`/bff/openapi.json`), so that
tools (and the fuzzing suite in `tests/security/`) see the whole public surface. Paths are the
public ones: the `{wsession}` segment is the gateway's to add and never appears here.
"""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.base import BffError, PlatformReply
from contracts.catalogue import ROUTES, Route

REF = "#/components/schemas/{name}"
# A path parameter is one segment of letters, digits and `._-` (the gateway refuses others).
SEGMENT = {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$"}
XSRF_HEADER = {
    "name": "X-XSRF-TOKEN",
    "in": "header",
    "required": True,
    "description": "The `XSRF-TOKEN` cookie's value, echoed (unsafe methods only).",
    "schema": {"type": "string"},
}


def _schemas() -> tuple[dict[Route, tuple[Any, Any]], dict[str, Any]]:
    """Each route's request and response schema (or None), and the shared components."""
    types: list[Any] = [BffError, PlatformReply]
    for route in ROUTES:
        types += [route.request if route.request is not None else dict[str, Any], route.response or dict[str, Any]]
    found, components = msgspec.json.schema_components(types, ref_template=REF)
    pairs = iter(found[2:])
    return {route: (next(pairs), next(pairs)) for route in ROUTES}, components


def json(schema: Any) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _operation(route: Route, request: Any, response: Any) -> dict[str, Any]:
    # An error is the gateway's common error JSON, or the platform's own envelope passed through.
    either = {"anyOf": [{"$ref": REF.format(name="BffError")}, {"$ref": REF.format(name="PlatformReply")}]}
    error = {"description": "The common error JSON, or the platform's reply", "content": json(either)}
    if route.binary:
        ok: dict[str, Any] = {"description": route.summary or "A file", "content": {"*/*": {"schema": {}}}}
    else:
        ok = {"description": route.summary or "The platform's answer", "content": json(response)}
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": SEGMENT} for name in route.params
    ]
    operation: dict[str, Any] = {
        "operationId": route.name,
        "summary": route.summary or route.name,
        "tags": [route.upstream],
        "x-policy": route.policy,
        "x-requires-login": route.auth,
        "parameters": parameters,
        "responses": {"200": ok, "default": error},
    }
    if route.method == "POST":
        parameters.append(XSRF_HEADER)
        if route.multipart:
            form = {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}}
            operation["requestBody"] = {"required": True, "content": {"multipart/form-data": {"schema": form}}}
        else:
            operation["requestBody"] = {"required": True, "content": json(request)}
    return operation


def catalogue_openapi() -> dict[str, Any]:
    """`paths` and `components` of an OpenAPI 3.1 document for every catalogue route."""
    schemas, components = _schemas()
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        request, response = schemas[route]
        paths.setdefault(route.public_path, {})[route.method.lower()] = _operation(route, request, response)
    return {"paths": paths, "components": {"schemas": components}}
