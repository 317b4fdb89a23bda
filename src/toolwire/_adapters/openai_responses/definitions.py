"""Responses tool lists: the definitions of a namespace's tools nested under one
`namespace` item, placed where its first tool is. No SDK import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...exceptions import ToolDefinitionError

if TYPE_CHECKING:
    from openai.types.responses import NamespaceToolParam

    from ..._definition import ToolNamespace

__all__ = ["nested"]


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
