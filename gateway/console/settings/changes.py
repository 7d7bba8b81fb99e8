"""Changing a skin's setting (`reality_check_minutes`): previewed, versioned, audited, applied on
every instance.

The setting is kept in the skin's overrides beside its upstreams, as `features.<name>` and its text
(`gateway.config.history.SETTING`), so the change goes the way an upstream's does: a preview that
changes nothing, then `LiveConfig.commit` from the version the operator saw (409 when the skin moved
on since), a new version naming the skin, the history and its rollback, the audit trail's `change`
with the setting as its target and the values before and after. The value is checked by the skins
file's own rule (`gateway.config.skins.Features`), so each error names the field. A skin whose
changes wait for a second operator is refused here (409 `APPROVAL_REQUIRED`): its approvals know
upstream changes and rollbacks only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, post
from litestar.di import NamedDependency

from gateway.accounts import scopes
from gateway.accounts.caller import Actor
from gateway.config.history import SETTING, SETTINGS, Change, Overrides
from gateway.config.skins import Features, compose, setting_text
from gateway.console.changes import preview, reason_errors, respond_to_commit, with_override
from gateway.http.asgi import Outgoing, RequestContext
from gateway.http.errors import FieldError, decoded_as, error, invalid
from gateway.parts import Gateway


class SettingAsked(msgspec.Struct):
    """A setting's change as sent; `value`: the minutes, null or 0 for off."""

    skin: str | None = None
    setting: str | None = None
    value: float | msgspec.UnsetType | None = msgspec.UNSET
    baseVersion: str | None = None
    reason: str | None = None


def setting_errors(gateway: Gateway, asked: SettingAsked) -> list[FieldError]:
    """Field errors of a setting's change; none: it names a skin, a setting and a new valid value."""
    errors = [] if asked.baseVersion else [FieldError("baseVersion", "REQUIRED", "The version it was made from")]
    if not asked.skin:
        errors.append(FieldError("skin", "REQUIRED", "Which skin"))
    elif all(skin.id != asked.skin for skin in gateway.config.skins.all):
        errors.append(FieldError("skin", "UNKNOWN_SKIN", f"No skin {asked.skin}"))
    if asked.setting not in SETTINGS:
        errors.append(FieldError("setting", "UNKNOWN_SETTING", f"Settings are {', '.join(SETTINGS)}"))
    if asked.value is msgspec.UNSET:
        errors.append(FieldError("value", "REQUIRED", "The new value (null or 0: off)"))
    elif asked.setting in SETTINGS:
        try:  # the skins file's own bounds
            msgspec.convert({asked.setting: asked.value or None}, Features)
        except msgspec.ValidationError:
            errors.append(FieldError("value", "OUT_OF_RANGE", "From 0.25 to 1440 minutes, or 0 (off)"))
    if errors:
        return errors
    change = setting_change(gateway, asked)
    if change.before == change.after:
        return [FieldError("value", "UNCHANGED", f"{asked.skin}'s {asked.setting} already is {change.before}")]
    return []


def setting_change(gateway: Gateway, asked: SettingAsked) -> Change:
    """What the change changes, as the history says it (`features.<name>`, before and after as text)."""
    assert asked.skin and asked.setting
    key = SETTING + asked.setting
    before = gateway.config.current.skins.state()[asked.skin][key]
    return Change(asked.skin, key, before, setting_text(asked.value or None))


def overridden(gateway: Gateway, change: Change) -> Callable[[Overrides], Overrides]:
    """The change to the overrides that sets the skin's setting (none left when it is the file's value)."""
    from_file = compose(gateway.config.current.data, {}, "file").state()[change.skin][change.upstream]
    after = None if change.after == from_file else change.after
    return lambda overrides: with_override(overrides, change.skin, change.upstream, after)


async def asked_setting(request: Request[Any, Any, Any], ctx: RequestContext) -> SettingAsked | Outgoing:
    asked = decoded_as(await request.body(), SettingAsked)
    return invalid(ctx, asked) if isinstance(asked, list) else asked


@post("/admin/api/settings/preview", status_code=200, opt={"role": "operator"})
async def preview_setting(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = await asked_setting(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    if errors := setting_errors(gateway, asked):
        return invalid(ctx, errors)
    await scopes.require(request, [asked.skin])
    return await preview(gateway, asked.baseVersion or "", [setting_change(gateway, asked)], ctx)


@post("/admin/api/settings", status_code=200, opt={"role": "operator"})
async def apply_setting(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], caller: NamedDependency[Actor]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    asked = await asked_setting(request, ctx)
    if isinstance(asked, Outgoing):
        return asked
    await scopes.require(request, [asked.skin])
    target = {"skin": asked.skin, "target": SETTING + (asked.setting or "")}
    if errors := setting_errors(gateway, asked) + reason_errors(asked.reason):
        await caller.record("change", "refused", asked.reason, **target, detail={"errors": msgspec.to_builtins(errors)})
        return invalid(ctx, errors)
    if any(skin.approval for skin in gateway.config.skins.all if skin.id == asked.skin):
        await caller.record("change", "refused", asked.reason, **target, detail={"code": "APPROVAL_REQUIRED"})
        return error(409, "APPROVAL_REQUIRED", f"{asked.skin}'s changes wait for approval: not its settings yet", ctx)
    change = setting_change(gateway, asked)
    author = caller.author(asked.reason)
    made = await gateway.config.commit(overridden(gateway, change), base=asked.baseVersion, author=author, probe=False)
    answer, outcome = await respond_to_commit(gateway, made, asked.baseVersion, "value", ctx)
    values = {"before": change.before, "after": change.after}
    await caller.record("change", outcome, asked.reason, **target, **values, detail={"version": made.version})
    return answer


route_handlers = [preview_setting, apply_setting]
