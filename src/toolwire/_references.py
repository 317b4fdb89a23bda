"""Tool references: a result part that loads a deferred tool, and the text the APIs
without references read instead.

A handler (toolwire's tool search, or your own, e.g. one that loads a whole
capability) returns `ToolReference(SomeTool)` among its parts. Each API gets it its own
way: an Anthropic `tool_reference` block inside the tool result; the tool's definition
in a Responses `tool_search_output` (answering a `tool_search_call`) or, answering a
function call, in one `additional_tools` item after the turn's outputs; on Chat
Completions and Gemini, a JSON text naming the tools (`{"loaded_tools": [...]}`), which
`group.loaded_tools(history, api)` reads back to grow the next request's tool list.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from .exceptions import ToolDefinitionError

__all__ = ["LOADED_TOOLS_KEY", "ToolReference", "loaded_names", "references_text"]

LOADED_TOOLS_KEY = "loaded_tools"
"""The key of the JSON text that names the tools a result loads."""


@dataclass(frozen=True, slots=True)
class ToolReference:
    """A result part loading `tool`, a deferred tool of the group (see
    `model_tool_defer_loading`), so the model can call it from then on.

    Reference deferred tools only: a tool the model already sees needs no loading (and
    Anthropic refuses a reference to a tool that is not deferred; toolwire names such a
    tool in text instead).
    """

    tool: type[Any]
    """The tool class to load."""
    name: str = field(init=False)
    """The tool's name (`tool.model_tool_name()`)."""
    description: str = field(init=False)
    """The tool's description, as the model reads it."""
    deferred: bool = field(init=False)
    """Whether the tool is deferred (only deferred tools are loaded natively)."""

    def __post_init__(self) -> None:
        if not (isinstance(self.tool, type) and hasattr(self.tool, "model_tool_name")):
            raise ToolDefinitionError(
                f"ToolReference takes a tool class (a BaseFunctionToolModel or "
                f"BaseCustomToolModel subclass), not {self.tool!r}."
            )
        tool: Any = self.tool
        name: str = tool.model_tool_name()
        description: str = tool._tool_description()
        deferred: bool = tool._deferred()
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "deferred", deferred)


def references_text(references: Iterable[ToolReference]) -> str:
    """The text naming the tools `references` load, for the APIs without references:
    `{"loaded_tools": [{"name": ..., "description": ...}, ...]}`."""
    listed = [{"name": r.name, "description": r.description} for r in references]
    return json.dumps({LOADED_TOOLS_KEY: listed}, ensure_ascii=False)


def loaded_names(content: object) -> list[str]:
    """The tool names a result's content says it loaded: the line `references_text`
    wrote (after the result's other text, before any notes), in its text or in one of
    its text parts (SDK objects or dicts with a "text"); none for any other content."""
    if isinstance(content, list | tuple):
        parts = cast("list[Any] | tuple[Any, ...]", content)
        return [name for part in parts for name in loaded_names(_text_of(part))]
    text = content
    if not isinstance(text, str) or LOADED_TOOLS_KEY not in text:
        return []
    names: list[str] = []
    for line in text.splitlines():
        if not line.startswith(_LINE_START):
            continue
        try:
            data: Any = json.loads(line)
        except ValueError:
            continue
        listed: Any = _text_of_key(data, LOADED_TOOLS_KEY)
        for entry in cast("list[Any]", listed) if isinstance(listed, list) else ():
            name = _text_of_key(entry, "name")
            if isinstance(name, str):
                names.append(name)
    return names


_LINE_START = '{"' + LOADED_TOOLS_KEY + '"'


def _text_of(part: object) -> object:
    if isinstance(part, Mapping):
        return cast("Mapping[str, Any]", part).get("text")
    return getattr(part, "text", None)


def _text_of_key(data: object, key: str) -> object:
    return cast("dict[str, Any]", data).get(key) if isinstance(data, dict) else None
