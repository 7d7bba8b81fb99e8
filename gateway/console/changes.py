"""Changing a skin's upstream, and rolling the configuration back: previewed, versioned, audited,
and confirmed on every instance.

A preview changes nothing: it validates the request field by field (a base URL in its one
spelling, `gateway.config.base_urls`), probes the new base URL (status, latency, the certificate
of an https one), checks that it speaks the platform (its documented calls for that upstream,
`gateway.config.conformity`) and says what would change. Applying names the version the operator
saw and a reason: a URL that does not speak the platform is refused unless the operator overrides
the check with a reason of their own (both in the audit trail); `LiveConfig.commit` refuses it as
a conflict when its skin moved on meanwhile (409 with who changed what since,
`gateway.console.conflicts`; other skins' changes never conflict), refuses a URL that does not
answer, and otherwise makes the new version on every instance; the answer says on how many it
runs (`Instances.wait_for_version`). A rollback is the same with an earlier version's overrides.
The bearer API's upstream calls (`PUT`/`DELETE /admin/skins/{id}/upstreams/{name}`) go the same way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, post
from litestar.di import NamedDependency

from contracts.catalogue import UPSTREAMS
from gateway.accounts import scopes
from gateway.accounts.audit import AuditResult
from gateway.accounts.caller import Actor
from gateway.config.allowed_hosts import HostPattern, allows
from gateway.config.base_urls import BaseUrlError, base_url
from gateway.config.history import Change, Overrides, is_setting
from gateway.config.live import Commit
from gateway.config.probe import probe
from gateway.console import conflicts
from gateway.console.answers.versions import Applied, Preview, RollbackPreview, RolledBack, VersionConflict
from gateway.console.contract import Override, conformities, contract
from gateway.console.plans.intake import Wanted, defer
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, decoded_as, error, invalid
from gateway.parts import Gateway


class Asked(msgspec.Struct):
    """A change or a rollback as sent: every field checked here, so each error names its field."""

    skin: str | None = None
    upstream: str | None = None
    url: str | msgspec.UnsetType | None = msgspec.UNSET
    """None: back to the skins file's value."""
    to: str | None = None
    baseVersion: str | None = None
    reason: str | None = None
    override: Override | None = None
    at: Any = None  # run it then (epoch seconds, `gateway.console.plans`), not now


def decoded(body: bytes) -> Asked | list[FieldError]:
    return decoded_as(body, Asked)


async def asked_in(request: Request[Any, Any, Any], ctx: RequestContext) -> Asked | Outgoing:
    """The request's body, or the 422 that says what is wrong with it."""
    asked = decoded(await request.body())
    return invalid(ctx, asked) if isinstance(asked, list) else asked


def url_errors(url: str) -> list[FieldError]:
    """What is wrong with a base URL (`gateway.config.base_urls`: an http(s) origin, maybe a path)."""
    try:
        base_url(url)
    except BaseUrlError as exc:
        return [FieldError("url", exc.code, str(exc))]
    return []


def allowed_hosts(gateway: Gateway, skin_id: str) -> tuple[HostPattern, ...]:
    """The hosts `skin_id`'s upstreams may point at (docs/allowed-hosts.md): its own in the skins
    file, the file's `allowed_hosts` and the environment's (`BFF_ALLOWED_HOSTS`)."""
    current = gateway.config.current
    return current.skins.allowed(gateway.config.allowed).of(skin_id, current.file_bases.get(skin_id, {}).values())


def host_errors(gateway: Gateway, skin_id: str, url: str, field: str = "url") -> list[FieldError]:
    """`url` (a base URL in its one spelling) refused on `field` when `skin_id` may not point at its host."""
    if allows(allowed_hosts(gateway, skin_id), url):
        return []
    return [FieldError(field, "URL_HOST_NOT_ALLOWED", f"{url} is not on a host {skin_id}'s upstreams may point at")]


def base_errors(asked: Asked) -> list[FieldError]:
    """The console's changes name the version they were made from."""
    return [] if asked.baseVersion else [FieldError("baseVersion", "REQUIRED", "The version it was made from")]


def unknown_skin(gateway: Gateway, skin_id: str, ctx: RequestContext) -> Outgoing | None:
    if any(skin.id == skin_id for skin in gateway.config.skins.all):
        return None
    return error(404, "UNKNOWN_SKIN", f"No skin {skin_id}", ctx)


def reason_errors(reason: str | None, field: str = "reason") -> list[FieldError]:
    text = (reason or "").strip()
    if len(text) < 3:
        return [FieldError(field, "REASON_TOO_SHORT", "Say why, in 3 to 500 characters")]
    if len(text) > 500:
        return [FieldError(field, "REASON_TOO_LONG", "Say why, in 3 to 500 characters")]
    return []


def override_errors(asked: Asked) -> list[FieldError]:
    """An override of the platform's check says why it is made."""
    return [] if asked.override is None else reason_errors(asked.override.reason, "override.reason")


def target_errors(gateway: Gateway, asked: Asked) -> list[FieldError]:
    errors = []
    if not asked.skin:
        errors.append(FieldError("skin", "REQUIRED", "Which skin"))
    elif all(skin.id != asked.skin for skin in gateway.config.skins.all):
        errors.append(FieldError("skin", "UNKNOWN_SKIN", f"No skin {asked.skin}"))
    if not asked.upstream:
        errors.append(FieldError("upstream", "REQUIRED", "Which upstream"))
    elif asked.upstream not in UPSTREAMS:
        errors.append(FieldError("upstream", "UNKNOWN_UPSTREAM", f"Upstreams are {', '.join(UPSTREAMS)}"))
    return errors


def change_errors(gateway: Gateway, asked: Asked) -> list[FieldError]:
    """Field errors of a change; none: `asked` names a skin, an upstream and a new base URL for it."""
    errors = target_errors(gateway, asked)
    if asked.url is msgspec.UNSET or asked.url == "":
        errors.append(FieldError("url", "REQUIRED", "The new base URL (null: back to the skins file's)"))
    elif isinstance(asked.url, str):
        errors += url_errors(asked.url)
    if errors:
        return errors
    if isinstance(asked.url, str):
        asked.url = base_url(asked.url)  # one spelling: `HTTP://Host:80/` is `http://host`
        if refused := host_errors(gateway, asked.skin or "", asked.url):
            return refused
    before, after = _before_after(gateway, asked)
    kept = gateway.config.current.overrides.get(asked.skin or "", {})
    if before == after and (asked.url is not None or asked.upstream not in kept):  # else: clears one not applied
        return [FieldError("url", "UNCHANGED", f"{asked.skin}.{asked.upstream} already is {before}")]
    return []


def _before_after(gateway: Gateway, asked: Asked) -> tuple[str, str]:
    assert asked.skin and asked.upstream
    current = gateway.config.current
    before = current.skins.bases()[asked.skin][asked.upstream]
    after = asked.url.rstrip("/") if isinstance(asked.url, str) else current.file_bases[asked.skin][asked.upstream]
    return before, after


def overridden(gateway: Gateway, asked: Asked) -> Callable[[Overrides], Overrides]:
    """The change to the overrides that points the asked upstream at its new base URL."""
    assert asked.skin and asked.upstream
    skin, name, (_, after) = asked.skin, asked.upstream, _before_after(gateway, asked)
    from_file = gateway.config.current.file_bases[skin][name]  # the file's own value: no override left behind
    return lambda overrides: with_override(overrides, skin, name, None if after == from_file else after)


def with_override(overrides: Overrides, skin: str, name: str, value: str | None) -> Overrides:
    """`overrides` with `skin`'s `name` (an upstream or a setting) at `value`; None: none left (nor a bare skin)."""
    if value is None:
        overrides.get(skin, {}).pop(name, None)
        if not overrides.get(skin):
            overrides.pop(skin, None)
    else:
        overrides.setdefault(skin, {})[name] = value
    return overrides


def canary_busy(gateway: Gateway, skins: list[str], ctx: RequestContext) -> Outgoing | None:
    """409 `CANARY_RUNNING` for a change to a skin whose canary is live (it would move the ground under
    the canary's judgment): promote or abort it first."""
    board = gateway.canaries.board if gateway.canaries is not None else None
    live = next((c for skin in skins if board and (c := board.current(skin)) is not None and c.live), None)
    if live is None:
        return None
    words = f"{live.skin} has a live canary ({live.id}) of {live.upstream}: promote or abort it first"
    return error(409, "CANARY_RUNNING", words, ctx)


# --- answers ----------------------------------------------------------------------------


async def preview(gateway: Gateway, base: str, changes: list[Change], ctx: RequestContext, **more: Any) -> Outgoing:
    """The preview's answer; `more`: a rollback's `to` and `file_differs`."""
    trust = gateway.clients.ssl_context  # the calls' own CAs: a probe refuses what they would refuse
    urls = sorted({c.after for c in changes if c.after and not is_setting(c.upstream)})  # a setting is no URL
    probing = asyncio.gather(*(probe(url, context=trust) for url in urls))
    probes, checks = await asyncio.gather(probing, conformities(gateway, changes))
    moved = await gateway.config.moved_skins(base, sorted({c.skin for c in changes}))
    answer = (RollbackPreview if more else Preview)(
        base_version=base,
        current=gateway.config.version,
        stale=moved is None or bool(moved),
        changes=changes,
        probe=probes[0] if probes else None,
        probes=probes,
        check=checks[0] if checks else None,
        checks=checks,
        **more,
    )
    return Outgoing.json(200, answer, ctx)


async def respond_to_commit(
    gateway: Gateway, commit: Commit, base: str | None, field: str, ctx: RequestContext, **more: Any
) -> tuple[Outgoing, AuditResult]:
    """The answer to a change or rollback `LiveConfig.commit` made (or refused), and its outcome for the audit."""
    if commit.result == "applied":
        live = await gateway.instances.wait_for_version(commit.version)
        made = (RolledBack if more else Applied)(
            version=commit.version, previous=commit.previous, changes=commit.changes, live=live, **more
        )
        return Outgoing.json(200, made, ctx), "ok"
    if commit.result == "conflict":
        changed = await conflicts.since(gateway.config, base, commit) if base else []
        if changed is None:
            return invalid(
                ctx, [FieldError("baseVersion", "UNKNOWN_VERSION", f"No version {base} is known")]
            ), "refused"
        answer = VersionConflict(
            message=conflicts.sentence(changed),
            request_id=ctx.request_id,
            current=commit.version,
            skins=commit.moved,
            changes=changed,
        )
        return Outgoing.json(409, answer, ctx, (b"cache-control", b"no-store")), "conflict"
    code = {"unchanged": "UNCHANGED", "invalid": "URL_INVALID", "unreachable": "URL_UNREACHABLE"}[commit.result]
    message = commit.error or "It changes nothing"
    return invalid(ctx, [FieldError(field, code, message)]), "refused"


# --- routes -----------------------------------------------------------------------------


@post("/admin/api/changes/preview", status_code=200, opt={"role": "operator"})
async def preview_change(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], caller: NamedDependency[Actor]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = decoded(await request.body())
    errors = asked if isinstance(asked, list) else base_errors(asked) + change_errors(gateway, asked)
    if errors or isinstance(asked, list):
        if not isinstance(asked, list) and any(e.code == "URL_HOST_NOT_ALLOWED" for e in errors):
            # Changes nothing, but an attempt at a host the deployment does not allow is in the trail.
            target, detail = {"skin": asked.skin, "target": asked.upstream}, {"errors": msgspec.to_builtins(errors)}
            await caller.record("change", "refused", asked.reason, **target, detail={**detail, "preview": True})
        return invalid(ctx, errors)
    assert asked.skin and asked.upstream and asked.baseVersion
    await scopes.require(request, [asked.skin])
    before, after = _before_after(gateway, asked)
    return await preview(gateway, asked.baseVersion, [Change(asked.skin, asked.upstream, before, after)], ctx)


@post("/admin/api/changes", status_code=200, opt={"role": "operator"})
async def apply_change(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], caller: NamedDependency[Actor]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = await asked_in(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    await scopes.require(request, [asked.skin])
    return await change(gateway, caller, asked, ctx, base_errors(asked) + reason_errors(asked.reason))


async def api_change(gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext, probe: bool) -> Outgoing:
    """The bearer API's change: its path names the skin and upstream (404 when unknown); the
    version and the reason are optional (whatever is current; `gateway.accounts.caller.API_REASON`)."""
    assert asked.skin and asked.upstream
    if (missing := unknown_skin(gateway, asked.skin, ctx)) is not None:
        return missing
    if asked.upstream not in UPSTREAMS:
        return error(404, "UNKNOWN_UPSTREAM", f"Upstreams are {', '.join(UPSTREAMS)}", ctx)
    errors = reason_errors(asked.reason) if asked.reason is not None else []
    return await change(gateway, caller, asked, ctx, errors, probe=probe)


async def change(
    gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext, errors: list[FieldError], *, probe: bool = True
) -> Outgoing:
    """A change applied (console and API alike), audited whatever became of it; with a time, or on
    a skin that needs a second operator, kept for later instead (`gateway.console.plans.intake`)."""
    refused = await _refuse_invalid(gateway, caller, asked, ctx, errors)
    if refused is not None:
        return refused
    url = asked.url if isinstance(asked.url, str) else None
    asking = {"skin": asked.skin, "upstream": asked.upstream, "url": url, "reason": asked.reason, "at": asked.at}
    later = await defer(gateway, caller, Wanted(kind="change", **asking, asked=msgspec.to_builtins(asked)), ctx)
    return later if later is not None else await apply(gateway, caller, asked, ctx, probe=probe)


async def run_change(gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext) -> Outgoing:
    """A change kept for later, now: checked again as it was when asked, then applied."""
    refused = await _refuse_invalid(gateway, caller, asked, ctx, [])  # a bearer API change named no version: none now
    return refused if refused is not None else await apply(gateway, caller, asked, ctx)


async def _refuse_invalid(
    gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext, errors: list[FieldError]
) -> Outgoing | None:
    errors = change_errors(gateway, asked) + errors + override_errors(asked)
    if not errors:
        return None
    target = {"skin": asked.skin, "target": asked.upstream}
    await caller.record("change", "refused", asked.reason, **target, detail={"errors": msgspec.to_builtins(errors)})
    return invalid(ctx, errors)


async def apply(gateway: Gateway, caller: Actor, asked: Asked, ctx: RequestContext, *, probe: bool = True) -> Outgoing:
    """A valid change: held to the platform's contract, then made the new version (or refused)."""
    assert asked.skin and asked.upstream
    target = {"skin": asked.skin, "target": asked.upstream}
    if (busy := canary_busy(gateway, [asked.skin], ctx)) is not None:
        await caller.record("change", "conflict", asked.reason, **target, detail={"code": "CANARY_RUNNING"})
        return busy
    before, after = _before_after(gateway, asked)
    refused, checked = await contract(
        gateway, asked, [Change(asked.skin, asked.upstream, before, after)], "url", probe=probe
    )
    if refused:
        detail = {"errors": msgspec.to_builtins(refused), "contract": checked}
        await caller.record("change", "refused", asked.reason, **target, before=before, after=after, detail=detail)
        return invalid(ctx, refused)
    author = caller.author(asked.reason)
    made = await gateway.config.commit(overridden(gateway, asked), base=asked.baseVersion, author=author, probe=probe)
    answer, outcome = await respond_to_commit(gateway, made, asked.baseVersion, "url", ctx)
    detail = {"version": made.version, "error": made.error, "contract": checked}
    await caller.record("change", outcome, asked.reason, **target, before=before, after=after, detail=detail)
    return answer


route_handlers = [preview_change, apply_change]
