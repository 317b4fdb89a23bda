"""Tool definitions of the wrong shape: the fakes answer them with HTTP 400, like the APIs.

Each API nests its function tools differently (PROVIDERS.md, section 0): Chat
Completions wraps them in `function`, Responses is flat, Anthropic has no `type` and an
`input_schema`, Gemini lists `functionDeclarations`. A definition built for one API and
sent to another used to get calls named `''` from the fakes; the live APIs refuse the
request, with these messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ._rules import field, text_field

__all__ = ["tool_definition_problem"]

_ANTHROPIC_SERVER_TOOL = re.compile(r"[a-z_]+_\d{8}")
"""Anthropic's versioned server and client tools (`web_search_20250305`, `bash_20250124`)."""
_RESPONSES_BUILT_INS = frozenset(
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
    }
)


def tool_definition_problem(api: str, tools: Sequence[Any]) -> str | None:
    """The live API's error for the first definition in `tools` it cannot take, or None."""
    for index, tool in enumerate(tools):
        problem = _CHECKS[api](index, tool)
        if problem is not None:
            return problem
    return None


def _chat(index: int, tool: Any) -> str | None:
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


def _responses(index: int, tool: Any) -> str | None:
    kind = field(tool, "type")
    if kind is None:
        return f"Missing required parameter: 'tools[{index}].type'."
    if kind in ("function", "custom"):
        if not text_field(tool, "name"):
            return f"Missing required parameter: 'tools[{index}].name'."
        return None
    if isinstance(kind, str) and (kind in _RESPONSES_BUILT_INS or kind.startswith("web_search")):
        return None
    return f"Invalid value: {kind!r} (tools[{index}].type)."


def _anthropic(index: int, tool: Any) -> str | None:
    kind = field(tool, "type")
    if isinstance(kind, str) and _ANTHROPIC_SERVER_TOOL.fullmatch(kind):
        return None
    if kind not in (None, "custom"):
        return (
            f"tools.{index}: Input tag {kind!r} found using 'type' does not match any of the "
            "expected tags: 'custom' or a versioned server tool type"
        )
    if not text_field(tool, "name"):
        return f"tools.{index}.custom.name: Field required"
    if not isinstance(field(tool, "input_schema"), Mapping):
        return f"tools.{index}.custom.input_schema: Field required"
    return None


def _gemini(index: int, tool: Any) -> str | None:
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


_CHECKS = {
    "chat.completions": _chat,
    "responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
