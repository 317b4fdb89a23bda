"""Tool definitions of the wrong shape: the fakes answer them with HTTP 400, like the APIs.

Each API nests its function tools differently (PROVIDERS.md, section 0): Chat
Completions wraps them in `function`, Responses is flat, Anthropic has no `type` and an
`input_schema`, Gemini lists `functionDeclarations`. A definition built for one API and
sent to another used to get calls named `''` from the fakes; the live APIs refuse the
request, with these messages.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from ._rules import field, text_field

__all__ = ["tool_definition_problem"]
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
    if kind not in (None, "custom"):
        shapes = _anthropic_server_tools()
        shape = shapes.get(kind) if isinstance(kind, str) else None
        if shape is None:
            tags = ", ".join(repr(tag) for tag in sorted({"custom", *shapes}))
            return (
                f"tools.{index}: Input tag {kind!r} found using 'type' does not match any of "
                f"the expected tags: {tags}"
            )
        for key in shape.required:
            if field(tool, key) is None:
                return f"tools.{index}.{kind}.{key}: Field required"
        name = field(tool, "name")
        if shape.names and name not in shape.names:
            expected = " or ".join(repr(n) for n in shape.names)
            return f"tools.{index}.{kind}.name: Input should be {expected}"
        return None
    if not text_field(tool, "name"):
        return f"tools.{index}.custom.name: Field required"
    if not isinstance(field(tool, "input_schema"), Mapping):
        return f"tools.{index}.custom.input_schema: Field required"
    return None


@dataclass(frozen=True, slots=True)
class _ServerTool:
    """What the SDK's param type of one Anthropic server or client tool requires."""

    required: tuple[str, ...]
    """Required keys besides `type`."""
    names: tuple[str, ...]
    """The `name` values its `Literal` allows (empty when the name is free or absent)."""


@cache
def _anthropic_server_tools() -> dict[str, _ServerTool]:
    """Every tool `type` the installed SDK defines besides `"custom"` (the members of
    `ToolUnionParam` and `BetaToolUnionParam`: `web_search_20250305`,
    `tool_search_tool_bm25_20251119` and its unversioned alias, the beta `mcp_toolset`...),
    read off the param `TypedDict`s themselves, so a new SDK's tools are known at once.

    The fake does not see the `anthropic-beta` header, so beta tools are taken on every
    request (the live API takes them with their beta enabled).
    """
    from anthropic.types import ToolUnionParam
    from anthropic.types.beta import BetaToolUnionParam

    shapes: dict[str, _ServerTool] = {}
    for param in (*typing.get_args(ToolUnionParam), *typing.get_args(BetaToolUnionParam)):
        hints = typing.get_type_hints(param, include_extras=True)
        required = tuple(
            key
            for key, hint in hints.items()
            if key != "type" and typing.get_origin(hint) is typing.Required
        )
        names = tuple(str(n) for n in _literals(hints.get("name")))
        for kind in _literals(hints.get("type")):
            if isinstance(kind, str) and kind != "custom":
                shapes[kind] = _ServerTool(required, names)
    return shapes


def _literals(hint: object) -> list[object]:
    """The values of a `Literal` annotation, through `Required`, `Optional` and unions
    (none for any other type)."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return list(typing.get_args(hint))
    if origin is None:
        return []
    return [value for arg in typing.get_args(hint) for value in _literals(arg)]


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
