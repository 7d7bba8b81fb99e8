"""One name, one thing: no class name is defined twice in the gateway (nested classes included),
so a name found in a traceback, a log or a review points at one definition."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

GATEWAY = Path(__file__).resolve().parents[2] / "gateway"

AWAITING: dict[str, str] = {}
"""Duplicates whose renaming belongs to a move still under way; each must still be a duplicate
(the second test), so the entry goes as soon as the move lands."""


def class_definitions() -> dict[str, list[str]]:
    """Every class name defined in `gateway/` -> where (`module.py:line`), nested classes included."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(GATEWAY.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(GATEWAY)}:{node.lineno}")
    return found


def test_no_class_name_is_defined_twice() -> None:
    twice = {name: where for name, where in class_definitions().items() if len(where) > 1 and name not in AWAITING}
    assert twice == {}, f"class names defined more than once in gateway/ (rename to what each is): {twice}"


def test_the_awaited_duplicates_still_exist() -> None:
    found = class_definitions()
    resolved = [name for name in AWAITING if len(found.get(name, [])) < 2]
    assert resolved == [], f"no longer defined twice, take them out of AWAITING: {resolved}"
