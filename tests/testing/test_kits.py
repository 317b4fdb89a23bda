"""The testing wing's layout: one package per API, found through one registry.

`toolwire.testing._kits.kit(api)` is the only place in the wing that tells the APIs
apart; each API's package (named after its adapter folder) holds its fake and rules.
These tests hold the layout to that: the registry finds each API's own package, no
shared module of the wing names an API, and the production adapters never import the
testing wing (it imports them).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import toolwire
from toolwire._api import API_NAMES, Api
from toolwire.testing._kits import kit

SRC = Path(toolwire.__file__).parent
WING = SRC / "testing"
API_PACKAGES = ("_openai_chat", "_openai_responses", "_anthropic", "_gemini")
REGISTRY = WING / "_kits.py"


@pytest.mark.parametrize("api", API_NAMES)
def test_the_registry_finds_each_apis_own_package(api: Api) -> None:
    found = kit(api)
    assert found.codec().api == api
    assert (found.chained_history_problems is not None) == (api == "responses")


def _named_apis(path: Path) -> set[str]:
    """The API names `path` spells as string constants outside type annotations."""
    tree = ast.parse(path.read_text(), str(path))
    annotations: set[int] = set()
    for node in ast.walk(tree):
        hint: ast.expr | None = None
        if isinstance(node, ast.AnnAssign | ast.arg):
            hint = node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            hint = node.returns
        if hint is not None:
            annotations.update(id(inner) for inner in ast.walk(hint))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in API_NAMES
        and id(node) not in annotations
    }


def test_only_the_registry_and_the_api_packages_name_an_api() -> None:
    shared = [
        path
        for path in sorted(WING.rglob("*.py"))
        if path.relative_to(WING).parts[0] not in API_PACKAGES
    ]
    assert REGISTRY in shared
    naming = {str(p.relative_to(SRC)): names for p in shared if (names := _named_apis(p))}
    assert naming == {"testing/_kits.py": set(API_NAMES)}


def _imported_modules(path: Path) -> list[str]:
    """Every module `path` imports (at any depth, relative imports made absolute)."""
    package = ".".join(("toolwire", *path.relative_to(SRC).parent.parts))
    modules: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            start = ".".join(base) if node.level else ""
            module = ".".join(part for part in (start, node.module or "") if part)
            modules += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return modules


def test_no_adapter_imports_the_testing_wing() -> None:
    adapters = sorted((SRC / "_adapters").rglob("*.py"))
    assert adapters
    importing = {
        str(path.relative_to(SRC)): found
        for path in adapters
        if (found := [m for m in _imported_modules(path) if m.startswith("toolwire.testing")])
    }
    assert importing == {}
