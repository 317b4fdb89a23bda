"""Whether validating dict arguments can hand the caller's own objects to a tool.

Anthropic and Gemini send arguments as dicts, and those dicts live inside the SDK's
response object, which `assistant_messages` replays. pydantic copies what it validates
into typed fields, but passes some input through by reference: values of `Any` (and of
`dict[str, Any]`, `list[Any]`...), extra fields of a model that allows them, and the raw
input a before/wrap/plain validator receives. A validator that renames a key, or a
handler that edits a nested dict, would then rewrite the model's turn in the history.

Such tool classes get a deep copy of their dict arguments; the others (most tools: typed
fields, no before-validators) are validated without one, so the fast path stays fast.
"""

from __future__ import annotations

from typing import Any, cast
from weakref import WeakKeyDictionary

__all__ = ["forget_shares", "shares_input"]

_SHARES: WeakKeyDictionary[type, bool] = WeakKeyDictionary()
"""Weak: a class made at run time (an MCP session's tools) is freed with what it holds."""
_PASS_THROUGH_VALIDATORS = frozenset({"function-before", "function-wrap", "function-plain"})


def shares_input(tool: type) -> bool:
    """Whether validating `tool` may leave parts of its input in the instance, or let a
    validator mutate the input. Decided once per class from its core schema."""
    found = _SHARES.get(tool)
    if found is None:
        schema: Any = getattr(tool, "__pydantic_core_schema__")  # noqa: B009
        found = _SHARES[tool] = _schema_shares(schema)
    return found


def forget_shares(tool: type) -> None:
    """Decide again for `tool` next time (its schema was rebuilt)."""
    _SHARES.pop(tool, None)


def _schema_shares(schema: object) -> bool:
    from ._tool import StrictInput

    stack: list[object] = [schema]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            fields = cast("dict[str, Any]", node)
            kind = fields.get("type")
            if kind == "any" or "allow" in (
                fields.get("extra_behavior"),  # model-fields, typed-dict...
                fields.get("extra_fields_behavior"),  # a model's config
            ):
                return True
            if kind in _PASS_THROUGH_VALIDATORS:
                function = fields.get("function")
                called = (
                    cast("dict[str, object]", function).get("function")
                    if isinstance(function, dict)
                    else None
                )
                if not isinstance(called, StrictInput):  # toolwire's own never mutates
                    return True
            stack.extend(fields.values())
        elif isinstance(node, list):
            stack.extend(cast("list[object]", node))
    return False
