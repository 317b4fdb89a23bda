"""Responses tool lists: the definitions of a namespace's tools nested under one
`namespace` item, placed where its first tool is; the group's tool search as the API's
own `tool_search` tool; and the tools a history's searches loaded. No SDK import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ..._references import loaded_names
from ...exceptions import ToolDefinitionError
from .._base import field
from .items import flat_name

if TYPE_CHECKING:
    from openai.types.responses import NamespaceToolParam, ToolSearchToolParam

    from ..._definition import ServerSearch, ToolNamespace, ToolSearchExecution

__all__ = ["loaded_tool_names", "nested", "tool_search_definition"]


def nested(definitions: list[Any], namespaces: Sequence[ToolNamespace | None]) -> list[Any]:
    """`definitions` in order, those of each namespace's tools gathered into one
    `NamespaceToolParam` at the place of its first tool. Two different namespaces of one
    name raise `ToolDefinitionError` (the API would see one namespace twice)."""
    if not any(namespaces):
        return definitions
    listed: list[Any] = []
    items: dict[str, tuple[ToolNamespace, NamespaceToolParam]] = {}
    for definition, namespace in zip(definitions, namespaces, strict=True):
        if namespace is None:
            listed.append(definition)
            continue
        known = items.get(namespace.name)
        if known is None:
            item: NamespaceToolParam = {
                "type": "namespace",
                "name": namespace.name,
                "description": namespace.description,
                "tools": [],
            }
            items[namespace.name] = (namespace, item)
            listed.append(item)
        elif known[0] != namespace:
            raise ToolDefinitionError(
                f"Two different namespaces are named {namespace.name!r} ({known[0]!r} and "
                f"{namespace!r}); give the tools of one namespace the same ToolNamespace "
                "object, or give the namespaces different names."
            )
        else:
            item = known[1]
        tools: Any = item["tools"]
        tools.append(definition)
    return listed


def tool_search_definition(
    definition: Any, execution: ToolSearchExecution, server: ServerSearch
) -> ToolSearchToolParam:
    """The `tool_search` tool: hosted (the server searches the deferred tools), or run by
    the client with the group's search tool's description and parameters."""
    if execution == "server":
        return {"type": "tool_search"}
    return {
        "type": "tool_search",
        "execution": "client",
        "description": definition["description"],
        "parameters": definition["parameters"],
    }


def loaded_tool_names(history: Sequence[object]) -> list[str]:
    """The tools loaded in `history` (input items): by `tool_search_output` items, by
    `additional_tools` items, and named in function and custom outputs (see
    `_references`)."""
    names: list[str] = []
    for item in history:
        kind = field(item, "type")
        if kind in ("tool_search_output", "additional_tools"):
            names += _names(field(item, "tools"))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            names += loaded_names(field(item, "output"))
    return names


def _names(tools: Any, namespace: str | None = None) -> list[str]:
    names: list[str] = []
    tool: Any
    for tool in _listed(tools):
        name = field(tool, "name")
        if not isinstance(name, str):
            continue
        if field(tool, "type") == "namespace":
            names += _names(field(tool, "tools"), name)
        else:
            names.append(flat_name(name, namespace))
    return names


def _listed(value: Any) -> Sequence[Any]:
    """`value` when it is a list (or tuple), else nothing."""
    return cast("Sequence[Any]", value) if isinstance(value, list | tuple) else ()
