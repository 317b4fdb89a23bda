"""The function and custom tools a Responses request offers, as the fake's model sees
them: top-level ones and those inside a `namespace` tool, each by the name toolwire
and a scripted `FakeCall` use (a namespace's tools by their flat name,
`crm__get_customer`), with what the fake needs to call them and to find them.

A call to a namespace's tool names the tool and its namespace apart (`name:
"get_customer", namespace: "crm"`), as the SDK's `ResponseFunctionToolCall.namespace`
says; a top-level deferred tool a search loaded is called in a namespace of its own
name, as the recorded traffic shows. A server search's `tool_search_output` holds the
found definitions as the request sent them, a namespace's inside that namespace (its
name and description, holding only the found tools): the SDK types the output's
`tools` as the request's tool union, namespaces included; no recorded exchange shows a
namespaced search, so this is the least-invented form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..._adapters.openai_responses.items import flat_name
from .._fake_wire import json_list
from .._rules import field, text_field

__all__ = ["OfferedTool", "offered_tools", "search_output_tools"]


@dataclass(frozen=True, slots=True)
class OfferedTool:
    """One function or custom tool of the request."""

    name: str
    """The name a call uses in toolwire (`crm__get_customer` inside a namespace)."""
    definition: Mapping[str, Any]
    """Its definition, as the request sent it."""
    namespace: Mapping[str, Any] | None = None
    """The `namespace` tool holding it (None at top level)."""

    @property
    def deferred(self) -> bool:
        return field(self.definition, "defer_loading") is True

    def call_names(self) -> dict[str, str]:
        """The `name` and `namespace` fields of a call to it."""
        own = text_field(self.definition, "name")
        if self.namespace is not None:
            return {"name": own, "namespace": text_field(self.namespace, "name")}
        return {"name": own, "namespace": own} if self.deferred else {"name": own}


def offered_tools(tools: Sequence[Any]) -> Iterator[OfferedTool]:
    """The request's function and custom tools, in order, a namespace's in its place."""
    for tool in tools:
        kind = field(tool, "type")
        if kind in ("function", "custom"):
            yield OfferedTool(text_field(tool, "name"), tool)
        elif kind == "namespace":
            namespace = text_field(tool, "name")
            for inner in json_list(field(tool, "tools")):
                if field(inner, "type") in ("function", "custom"):
                    yield OfferedTool(flat_name(text_field(inner, "name"), namespace), inner, tool)


def search_output_tools(found: Sequence[str], offered: Mapping[str, OfferedTool]) -> list[Any]:
    """The `tools` of a server search's `tool_search_output` finding `found` (names of
    `offered`): each top-level tool as sent, a namespace's found tools inside a copy of
    that namespace holding only them, at the place of its first found tool."""
    listed: list[Any] = []
    namespaces: dict[str, dict[str, Any]] = {}
    for name in found:
        tool = offered[name]
        if tool.namespace is None:
            listed.append(tool.definition)
            continue
        key = text_field(tool.namespace, "name")
        item = namespaces.get(key)
        if item is None:
            item = namespaces[key] = {**tool.namespace, "tools": []}
            listed.append(item)
        item["tools"].append(tool.definition)
    return listed
