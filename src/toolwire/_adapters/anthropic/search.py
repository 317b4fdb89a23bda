"""Anthropic tool search: the server's search tools (BM25 or regex) for the group's tool
search, and the tools a history's searches loaded. No SDK import.

A deferred tool is loaded by a `tool_reference` block: inside a `tool_search_tool_result`
(the server searched), inside a `tool_result` (toolwire's search, or any handler that
returns `ToolReference`s), or in a `tool_addition` block of a system message (the
mid-conversation tool availability beta).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .._base import field

if TYPE_CHECKING:
    from anthropic.types import (
        ToolParam,
        ToolSearchToolBm25_20251119Param,
        ToolSearchToolRegex20251119Param,
    )

    from ..._definition import ServerSearch, ToolSearchExecution

__all__ = ["loaded_tool_names", "tool_search_definition"]


def tool_search_definition(
    definition: ToolParam, execution: ToolSearchExecution, server: ServerSearch
) -> ToolParam | ToolSearchToolBm25_20251119Param | ToolSearchToolRegex20251119Param:
    """The server's search tool (`tool_search_tool_bm25_20251119` or its regex sibling),
    or, run by the client, the group's search tool as a plain tool."""
    if execution == "client":
        return definition
    if server == "regex":
        return {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}
    return {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}


def loaded_tool_names(history: Sequence[object]) -> list[str]:
    """The names of the tools `tool_reference` blocks in `history` (message params, or
    SDK messages) loaded, in order."""
    names: list[str] = []
    for message in history:
        content: Any = field(message, "content")
        block: Any
        for block in _listed(content):
            kind = field(block, "type")
            if kind == "tool_result":
                names += _referenced(field(block, "content"))
            elif kind == "tool_search_tool_result":
                names += _referenced(field(field(block, "content"), "tool_references"))
            elif kind == "tool_addition":
                tool = field(block, "tool")
                if field(tool, "type") == "tool_reference" and isinstance(
                    name := field(tool, "name"), str
                ):
                    names.append(name)
    return names


def _referenced(blocks: Any) -> list[str]:
    names: list[str] = []
    block: Any
    for block in _listed(blocks):
        name = field(block, "tool_name")
        if field(block, "type") == "tool_reference" and isinstance(name, str):
            names.append(name)
    return names


def _listed(value: Any) -> Sequence[Any]:
    """`value` when it is a list (or tuple), else nothing."""
    return cast("Sequence[Any]", value) if isinstance(value, list | tuple) else ()
