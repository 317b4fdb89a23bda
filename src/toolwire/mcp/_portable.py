"""A server's `inputSchema` in the shape toolwire's schema compiler reads: every local
reference under the root's `$defs`.

Servers refer inside their schemas in more ways than `#/$defs/<name>`: draft-07's
`#/definitions/<name>`, zod's `#/properties/<field>/...` for a schema used twice, and `#`
for a schema that contains itself.
The strict subsets and Gemini take `$defs` only, so such a reference is moved there
(same schema, new address) before the schema is compiled for an API. The arguments are
still checked against the server's own schema, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from .._schema._shapes import def_name

__all__ = ["portable_schema"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
_DOCUMENT_KEYS = frozenset({"$defs", "definitions", "$schema", "$id"})


def portable_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with each local JSON-pointer reference outside `$defs` pointing to a copy
    of its target under `$defs` (a root `definitions` then left out); `schema` itself
    when it has none, or when a nested `$id` could make a pointer mean something else."""
    refs = _pointer_refs(schema)
    if not refs or _has_nested_id(schema):
        return schema
    defs = cast("dict[str, Any]", schema.get("$defs") or {})
    taken = set(defs)
    names: dict[str, str] = {}
    for ref in sorted(refs):
        if _target(schema, ref) is None:
            continue  # points nowhere: the compiler says so for each API
        name = _free_name(ref, taken)
        taken.add(name)
        names[ref] = name
    if not names:
        return schema
    moved = {name: _rewritten(_target(schema, ref), names) for ref, name in names.items()}
    out: dict[str, Any] = cast("dict[str, Any]", _rewritten(schema, names))
    if not any(ref.startswith("#/definitions/") and ref not in names for ref in refs):
        out.pop("definitions", None)
    out["$defs"] = {**cast("dict[str, Any]", out.get("$defs") or {}), **moved}
    return out


def _pointer_refs(node: object) -> set[str]:
    """The local JSON-pointer `$ref`s outside `$defs` anywhere in `node`."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            mapping = cast("dict[str, Any]", item)
            ref = mapping.get("$ref")
            if isinstance(ref, str) and _is_pointer(ref) and def_name(ref) is None:
                found.add(ref)
            stack.extend(mapping.values())
        elif isinstance(item, list):
            stack.extend(cast("list[Any]", item))
    return found


def _is_pointer(ref: str) -> bool:
    return ref == "#" or ref.startswith("#/")


def _has_nested_id(schema: Mapping[str, Any]) -> bool:
    stack: list[object] = [value for key, value in schema.items() if key != "$id"]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            mapping = cast("dict[str, Any]", item)
            if isinstance(mapping.get("$id"), str) or isinstance(mapping.get("id"), str):
                return True
            stack.extend(mapping.values())
        elif isinstance(item, list):
            stack.extend(cast("list[Any]", item))
    return False


def _target(schema: Mapping[str, Any], ref: str) -> dict[str, Any] | bool | None:
    """The schema `ref` (a `#...` JSON pointer) points to, or None. The root is taken
    without what belongs to the document rather than to the schema (its definitions, its
    dialect and its URI)."""
    if ref == "#":
        return {key: value for key, value in schema.items() if key not in _DOCUMENT_KEYS}
    node: Any = schema
    for raw in ref[2:].split("/"):
        segment = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = cast("dict[str, Any]", node).get(segment)
        elif isinstance(node, list) and segment.isdigit():
            items = cast("list[Any]", node)
            node = items[int(segment)] if int(segment) < len(items) else None
        else:
            return None
    return cast("dict[str, Any] | bool", node) if isinstance(node, dict | bool) else None


def _free_name(ref: str, taken: set[str]) -> str:
    """A `$defs` name for `ref`'s target: its last segment, made safe and unique."""
    last = ref.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") if ref != "#" else "root"
    base = _UNSAFE.sub("_", last) or "def"
    name, number = base, 2
    while name in taken:
        name, number = f"{base}_{number}", number + 1
    return name


def _rewritten(node: object, names: Mapping[str, str]) -> object:
    """A copy of `node` whose references in `names` point to their new `$defs` entry."""
    if isinstance(node, dict):
        mapping = cast("dict[str, Any]", node)
        out = {key: _rewritten(value, names) for key, value in mapping.items()}
        ref = mapping.get("$ref")
        if isinstance(ref, str) and ref in names:
            out["$ref"] = "#/$defs/" + names[ref]  # a safe name: nothing to escape
        return out
    if isinstance(node, list):
        return [_rewritten(item, names) for item in cast("list[Any]", node)]
    return node
