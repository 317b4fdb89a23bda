"""The Gemini tool definitions the live API refuses (`_tool_shapes`): a `Tool` object
with only the keys `types.Tool` defines, and a name on every function declaration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .._rules import field, text_field

__all__ = ["gemini_tool_definition_problem"]


def gemini_tool_definition_problem(index: int, tool: Any) -> str | None:
    """The live API's error for the definition `tools[index]`, or None."""
    if not isinstance(tool, Mapping):
        return f"Invalid JSON payload received. tools[{index}] is not an object."
    from google.genai import types

    known = {
        name for key, info in types.Tool.model_fields.items() for name in (key, info.alias or key)
    }
    unknown = [key for key in cast("Mapping[str, Any]", tool) if key not in known]
    if unknown:
        return (
            f"Invalid JSON payload received. Unknown name {unknown[0]!r} at 'tools[{index}]': "
            "Cannot find field."
        )
    declarations: Any = (
        field(cast(object, tool), "functionDeclarations", "function_declarations") or []
    )
    listed: list[Any] = declarations if isinstance(declarations, list) else []  # pyright: ignore[reportUnknownVariableType]
    for position, declaration in enumerate(listed):
        if not text_field(declaration, "name"):
            return (
                f"* GenerateContentRequest.tools[{index}].function_declarations[{position}].name: "
                "Name cannot be empty."
            )
    return None
