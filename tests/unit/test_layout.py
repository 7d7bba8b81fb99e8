"""The gateway's layout keeps its limits: no import cycle, small modules, short functions, small
folders, and imports running one way between the layer folders (lower first, `LAYERS`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GATEWAY = ROOT / "gateway"
MAX_MODULE_LINES, MAX_FUNCTION_LINES, MAX_FOLDER_MODULES = 350, 60, 12
LAYERS = (
    "runtime",
    "store",
    "http",
    "config",
    "state",
    "balance",
    "upstream",
    "monitoring",
    "maintenance",
    "pipeline",
    "canary",
    "edge",
    "accounts",
    "parts",
    "stores",
    "console",
    "app",
    "operations",
)
"""Lowest first: a module imports from its own layer and the ones before it, never from a later one
(imports under `TYPE_CHECKING` and inside functions included)."""


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(GATEWAY.rglob("*.py")):
        parts = path.relative_to(GATEWAY).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        yield ".".join(parts), path


def imports(path: Path) -> Iterator[str]:
    """The gateway modules a module imports (anywhere in it), without the `gateway.` prefix."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gateway":
            yield node.module.removeprefix("gateway").removeprefix(".")
        elif isinstance(node, ast.Import):
            yield from (a.name.removeprefix("gateway.") for a in node.names if a.name.startswith("gateway."))


def layer(module: str) -> str:
    return module.split(".")[0]


def test_no_import_cycle() -> None:
    known = dict(modules())
    graph = {name: {m for m in imports(path) if m in known and m != name} for name, path in known.items()}
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, " -> ".join((*trail[trail.index(name) :], name))
        if name in done:
            return
        for other in graph[name]:
            visit(other, (*trail, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_imports_run_one_way_between_layers() -> None:
    back = set()
    for name, path in modules():
        if layer(name) in ("", "__main__"):
            continue
        assert layer(name) in LAYERS, f"{name}: a folder the layers do not list"
        for other in imports(path):
            if other and layer(other) in LAYERS and LAYERS.index(layer(other)) > LAYERS.index(layer(name)):
                back.add((name, other))
    assert sorted(back) == [], "imports against the layers' order"


def test_modules_functions_and_folders_stay_small() -> None:
    too_long, long_functions = [], []
    folders: dict[Path, int] = {}
    for name, path in modules():
        source = path.read_text()
        if len(source.splitlines()) > MAX_MODULE_LINES:
            too_long.append(name)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    long_functions.append(f"{name}.{node.name}")
        if path.name != "__init__.py":
            folders[path.parent] = folders.get(path.parent, 0) + 1
    assert too_long == []
    assert long_functions == []
    assert {folder: n for folder, n in folders.items() if n > MAX_FOLDER_MODULES} == {}


def test_the_pipeline_tells_the_balance_stream_through_its_protocol_only() -> None:
    """The proxied path knows the stream by `balance.sink.BalanceSink` alone; the composition root
    hands it the feed."""
    reached = {
        (name, other)
        for name, path in modules()
        if layer(name) == "pipeline"
        for other in imports(path)
        if layer(other) == "balance" and other != "balance.sink"
    }
    assert sorted(reached) == []
