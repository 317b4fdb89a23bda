"""The Chat Completions tool definitions the live API refuses (`_tool_shapes`): each
entry of `tools` is a `function` or `custom` tool wrapped under its type, with a name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .._rules import field, text_field

__all__ = ["chat_tool_definition_problem"]


def chat_tool_definition_problem(index: int, tool: Any) -> str | None:
    """The live API's error for the definition `tools[index]`, or None."""
    kind = field(tool, "type")
    if kind not in ("function", "custom"):
        return (
            f"Invalid value: {kind!r}. Supported values are: 'function' and 'custom' "
            f"(tools[{index}].type)."
        )
    inner: Any = field(tool, kind)
    if not isinstance(inner, Mapping):
        return f"Missing required parameter: 'tools[{index}].{kind}'."
    if not text_field(cast(object, inner), "name"):
        return f"Missing required parameter: 'tools[{index}].{kind}.name'."
    return None
