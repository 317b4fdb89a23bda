"""The Messages tool definitions the live API refuses (`_tool_shapes`): a custom tool
needs a name and an `input_schema`, and its `input_examples` must each be valid under
that schema; a server or client tool, a `type` the SDK defines, its required keys and,
where its type fixes one, its name."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from .._instances_check import SchemaChecker
from .._rules import HistoryProblem, blocks_of, field, text_field

__all__ = [
    "anthropic_callers_problem",
    "anthropic_reference_problems",
    "anthropic_tool_definition_problem",
]


def anthropic_tool_definition_problem(index: int, tool: Any) -> str | None:
    """The live API's error for the definition `tools[index]`, or None."""
    kind = field(tool, "type")
    if kind not in (None, "custom"):
        shapes = _server_tools()
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
    schema = field(tool, "input_schema")
    if not isinstance(schema, Mapping):
        return f"tools.{index}.custom.input_schema: Field required"
    return _example_problem(index, cast("Mapping[str, Any]", schema), field(tool, "input_examples"))


def anthropic_callers_problem(tools: list[Any]) -> str | None:
    """The live API's error for a tool whose `allowed_callers` names a code execution
    version the request offers no code execution tool of: nothing could call it."""
    offered = {field(tool, "type") for tool in tools}
    for index, tool in enumerate(tools):
        callers: object = field(tool, "allowed_callers")
        if callers is None:
            continue
        for kind in cast("list[Any]", callers) if isinstance(callers, list) else [callers]:
            if kind != "direct" and kind not in offered:
                return (
                    f"tools.{index}.custom.allowed_callers: {kind!r} needs the code execution "
                    f"tool of that version in `tools` (type {kind!r}); add it, or allow only "
                    "'direct'"
                )
    return None


def anthropic_reference_problems(messages: list[Any], tools: list[Any]) -> list[HistoryProblem]:
    """The live API's error for each `tool_reference` block in a user message (or in one
    of its `tool_result`s) that names no deferred tool of the request (`defer_loading:
    true` in `tools`): only a deferred tool can be loaded."""
    deferred = {text_field(tool, "name") for tool in tools if field(tool, "defer_loading") is True}
    offered = {text_field(tool, "name") for tool in tools}
    problems: list[HistoryProblem] = []
    for index, message in enumerate(messages):
        if text_field(message, "role") != "user":
            continue
        for position, block in enumerate(blocks_of(message, "content")):
            inner = (
                blocks_of(block, "content") if text_field(block, "type") == "tool_result" else []
            )
            for where, reference in [(f"{position}", block)] + [
                (f"{position}.content.{n}", b) for n, b in enumerate(inner)
            ]:
                name = text_field(reference, "tool_name")
                if text_field(reference, "type") != "tool_reference" or name in deferred:
                    continue
                why = (
                    "is not deferred (defer_loading: true)"
                    if name in offered
                    else "is not in tools"
                )
                problems.append(
                    HistoryProblem(
                        index,
                        f"messages.{index}.content.{where}: the tool_reference names {name!r}, "
                        f"which {why}; a tool_reference loads a deferred tool of the request, "
                        "so reference only those (name a tool the model already has in text)",
                    )
                )
    return problems


def _example_problem(index: int, schema: Mapping[str, Any], examples: object) -> str | None:
    """The error for an input example the tool's own schema refuses."""
    if examples is None:
        return None
    listed = cast("list[Any]", examples) if isinstance(examples, list) else None
    if listed is None:
        return f"tools.{index}.custom.input_examples: Input should be a valid list"
    checker = SchemaChecker(schema)
    for position, example in enumerate(listed):
        if not isinstance(example, Mapping) or checker.check(example, schema) is False:
            where = f" at {checker.failure[0]} ({checker.failure[1]})" if checker.failure else ""
            return (
                f"tools.{index}.custom.input_examples.{position}: the example does not match "
                f"the tool's input_schema{where}"
            )
    return None


@dataclass(frozen=True, slots=True)
class _ServerTool:
    """What the SDK's param type of one Anthropic server or client tool requires."""

    required: tuple[str, ...]
    """Required keys besides `type`."""
    names: tuple[str, ...]
    """The `name` values its `Literal` allows (empty when the name is free or absent)."""


@cache
def _server_tools() -> dict[str, _ServerTool]:
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
