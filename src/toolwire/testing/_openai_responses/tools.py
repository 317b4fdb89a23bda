"""The Responses tool definitions the live API refuses (`_tool_shapes`): flat `function`
and `custom` tools with a name, and the built-in tool types it knows."""

from __future__ import annotations

from typing import Any

from .._rules import field, text_field

__all__ = ["responses_tool_definition_problem"]

_BUILT_INS = frozenset(
    {
        "file_search",
        "web_search",
        "web_search_preview",
        "computer_use_preview",
        "computer",
        "mcp",
        "code_interpreter",
        "image_generation",
        "local_shell",
        "shell",
        "apply_patch",
        "tool_search",
        "namespace",
        "programmatic_tool_calling",
    }
)


def responses_tool_definition_problem(index: int, tool: Any) -> str | None:
    """The live API's error for the definition `tools[index]`, or None."""
    kind = field(tool, "type")
    if kind is None:
        return f"Missing required parameter: 'tools[{index}].type'."
    if kind in ("function", "custom"):
        if not text_field(tool, "name"):
            return f"Missing required parameter: 'tools[{index}].name'."
        return None
    if isinstance(kind, str) and (kind in _BUILT_INS or kind.startswith("web_search")):
        return None
    return f"Invalid value: {kind!r} (tools[{index}].type)."
