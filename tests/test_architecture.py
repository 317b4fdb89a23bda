"""The import graph of `src/toolwire` keeps the layers `docs/architecture.md` draws: no
import circle, no adapter importing the testing wing, and no module outside an API's own
folders naming an API.

The graph is read with `ast`, without importing anything:

- every `import` and `from ... import` counts, at module level and inside functions
  (a function-level import runs too, only later); importing `a.b.c` also imports the
  packages `a.b` and `a`, whose `__init__` runs;
- imports under `if TYPE_CHECKING:` never run: they are kept apart, and count for no
  circle (they still count as an adapter importing the testing wing);
- `importlib.import_module("a.b")` with a constant name counts like `import a.b`; the
  registry's lazy load (`toolwire._api.adapter`, which imports an adapter folder named by
  its entry) is by design not an edge: it is how the lower layers reach an adapter
  without importing one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from toolwire._api import API_ENTRIES, API_NAMES

SRC = Path(__file__).resolve().parents[1] / "src"

UPWARD_CALLS: dict[tuple[str, str], str] = {
    ("toolwire.exceptions", "toolwire._result"): (
        "ToolBatchError.answer_all() (public, in toolwire.exceptions) builds a "
        "ToolCallFailure for each call that did not finish; results sit above the "
        "exceptions every lower module raises"
    ),
    ("toolwire._call", "toolwire._read"): (
        "StandardToolCall.from_any_call() (public, the seed's) reads any call object "
        "through the front door, which stands above the neutral call type it returns"
    ),
}
"""The only imports allowed to close a circle: function-level imports inside public
convenience methods of the bottom layer, each run only when that method is called.
Everything else must go from a higher layer to a lower one."""

REGISTRIES: dict[str, str] = {
    "toolwire._api": "the registry: the API names, each API's entry, detection and mismatch messages",
    "toolwire._standard": (
        "toolcall's StandardFunctionToolDefinition and StandardCustomToolDefinition, "
        "OpenAI-only by contract: their methods are named after the two OpenAI APIs"
    ),
}
"""Modules outside the API folders that may name an API, and why."""

TESTING_WING = "toolwire.testing"


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: set[str] = field(default_factory=set[str])
    """Modules it imports when it runs (at module level or inside functions)."""
    type_only: set[str] = field(default_factory=set[str])
    """Modules it imports only for the type checker."""


def read_graph() -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for path in sorted((SRC / "toolwire").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        modules[name] = Module(name, path, is_package)
    for module in modules.values():
        tree = ast.parse(module.path.read_text(), str(module.path))
        type_only = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            for target in _targets(node, module):
                found = _known(target, modules)
                if found is None or found == module.name:
                    continue
                edges = module.type_only if id(node) in type_only else module.imports
                edges.update(_with_packages(found, module.name, modules))
    return modules


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """The nodes under `if TYPE_CHECKING:` (its body, not its `else`)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                found.update(id(inner) for inner in ast.walk(statement))
    return found


def _targets(node: ast.AST, module: Module) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = _absolute(node.module or "", node.level, module)
        for alias in node.names:  # `from a import b` imports a.b when b is a module
            yield f"{base}.{alias.name}"
    elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            package = node.args[1] if len(node.args) > 1 else None
            if first.value.startswith(".") and isinstance(package, ast.Constant):
                level = len(first.value) - len(first.value.lstrip("."))
                anchor = Module(str(package.value), module.path, is_package=True)
                yield _absolute(first.value[level:], level, anchor)
            else:
                yield first.value


def _is_import_module(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id == "import_module"
    )


def _absolute(name: str, level: int, module: Module) -> str:
    if level == 0:
        return name
    base = module.name.split(".")
    if not module.is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _known(target: str, modules: dict[str, Module]) -> str | None:
    """The toolwire module `target` names (a name imported from a module: that module)."""
    while target not in modules and "." in target:
        target = target.rsplit(".", 1)[0]
    return target if target in modules else None


def _with_packages(target: str, importer: str, modules: dict[str, Module]) -> set[str]:
    """`target` and the packages above it whose `__init__` importing it runs (not the
    importer's own packages, which ran before it)."""
    found = {target}
    parts = target.split(".")
    for end in range(1, len(parts)):
        package = ".".join(parts[:end])
        if package in modules and not importer.startswith(package + "."):
            found.add(package)
    found.discard(importer)
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _cycle_in(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One path through `component` from its first module back to it, for the message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(edges[node] & members):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    return component


GRAPH = read_graph()


def test_no_import_circles() -> None:
    """No module imports, through others, a module that imports it: each layer imports
    only the layers below it (the listed upward calls excepted)."""
    stale = [edge for edge in UPWARD_CALLS if edge[1] not in GRAPH[edge[0]].imports]
    assert not stale, f"These upward calls are gone: remove them from UPWARD_CALLS: {stale}"
    edges = {
        name: {target for target in module.imports if (name, target) not in UPWARD_CALLS}
        for name, module in GRAPH.items()
    }
    problems = [" -> ".join(_cycle_in(component, edges)) for component in circles(edges)]
    assert not problems, (
        "These modules import each other in a circle:\n  "
        + "\n  ".join(problems)
        + "\nBreak each: move what both need into a lower module that both import, or let "
        "the lower one be handed it (a parameter, an adapter found through the registry "
        "in toolwire._api) instead of importing the higher one. docs/architecture.md "
        "says which layer may import which."
    )


def test_the_adapters_do_not_import_the_testing_wing() -> None:
    """Production code never depends on the fakes and rules of `toolwire.testing`; the
    testing wing imports the adapters, not the reverse."""
    problems = sorted(
        f"{name} imports {target}"
        for name, module in GRAPH.items()
        if name.startswith("toolwire._adapters")
        for target in module.imports | module.type_only
        if target == TESTING_WING or target.startswith(TESTING_WING + ".")
    )
    assert not problems, (
        "Adapters import the testing wing:\n  "
        + "\n  ".join(problems)
        + "\nMove the module into the API's testing package (toolwire/testing/_<folder>/), "
        "or move what the adapter needs out of the testing wing into the adapter folder."
    )


def _api_modules() -> set[str]:
    """The modules that may name their API: each API's adapter folder and testing
    package, and the schema-rules module its registry entry names."""
    prefixes = [
        f"toolwire.{place}{entry.folder}"
        for entry in API_ENTRIES.values()
        for place in ("_adapters.", "testing._")
    ]
    owned = {
        name
        for name in GRAPH
        for prefix in prefixes
        if name == prefix or name.startswith(prefix + ".")
    }
    schema_rules = {
        f"toolwire._schema.{entry.schema_rules.split(':')[0]}" for entry in API_ENTRIES.values()
    }
    return owned | schema_rules


def _annotation_nodes(tree: ast.Module) -> set[int]:
    """The nodes inside type annotations and `Literal[...]` (typing overloads say which
    API an argument takes; that is not per-API logic)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            roots += [a.annotation for a in every if a.annotation is not None]
            if node.returns is not None:
                roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("Literal"):
            roots.append(node)
    return {id(inner) for root in roots for inner in ast.walk(root)}


def test_only_the_api_folders_name_an_api() -> None:
    """Per-API knowledge lives in the API's own folders: any other module reaches an API
    through the registry and the `Adapter` interface, so adding an API touches no
    shared module."""
    allowed = _api_modules() | set(REGISTRIES)
    problems: list[str] = []
    for name, module in sorted(GRAPH.items()):
        if name in allowed:
            continue
        tree = ast.parse(module.path.read_text(), str(module.path))
        in_annotations = _annotation_nodes(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in API_NAMES
                and id(node) not in in_annotations
            ):
                problems.append(f"{module.path.relative_to(SRC)}:{node.lineno} {node.value!r}")
    assert not problems, (
        "Modules outside the API folders name an API:\n  "
        + "\n  ".join(problems)
        + "\nMove that knowledge into the API's adapter folder behind the Adapter interface "
        "(toolwire/_adapters/_base.py), or read it from the registry entry in "
        "toolwire/_api.py. A module that is a registry by design goes in REGISTRIES, with "
        "its reason."
    )


def test_the_graph_reader_sees_what_the_rules_rely_on() -> None:
    """The reader finds function-level imports, keeps `TYPE_CHECKING` ones apart, adds the
    packages an import runs, and does not follow the registry's lazy load."""
    read = GRAPH["toolwire._call"]
    assert "toolwire._read" in read.imports  # inside StandardToolCall.from_any_call
    assert "toolwire._stream" in GRAPH["toolwire._lazy"].type_only  # the lazy names' types
    assert "toolwire._stream" not in GRAPH["toolwire._lazy"].imports
    chat = GRAPH["toolwire._adapters.openai_chat.stream"]
    assert {"toolwire._streaming", "toolwire._streaming._events"} <= chat.imports
    assert not any(t.startswith("toolwire._adapters") for t in GRAPH["toolwire._api"].imports)
    example = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set[str]()}
    assert circles(example) == [["a", "b", "c"]]
