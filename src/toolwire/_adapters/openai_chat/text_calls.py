"""Tool calls a model wrote in its text, in a known format, because the server did not
turn them into `tool_calls` (its tool parser off, or a chat template without tools).

Two formats are read: Hermes and Qwen's `<tool_call>{"name": ..., "arguments": {...}}
</tool_call>`, and GLM's `<tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value>
</tool_call>` (the last call's closing tag may be missing: servers strip it as a stop
sequence). A block counts only when it reads whole: a name, and arguments that are an
object. `turn_status` says "calls_in_text" when a finished answer holds one;
`recover_text_calls` turns them into calls, as the server's parser would have.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["TextCall", "holds_text_call", "text_calls"]

_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_GLM_NAME = re.compile(r"\s*([A-Za-z0-9_.:-]{1,128})\s*(?=<arg_key>|\Z)")
_GLM_ARGUMENT = re.compile(r"\s*<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>", re.DOTALL)


@dataclass(frozen=True, slots=True)
class TextCall:
    """One call written in text: its name, its arguments, and where it is in the text."""

    name: str
    arguments: dict[str, Any]
    start: int
    end: int


def holds_text_call(content: str) -> bool:
    """Whether `content` holds a call in a known text format (cheap when it holds none)."""
    return _OPEN in content and next(_calls(content), None) is not None


def text_calls(content: str) -> tuple[list[TextCall], str]:
    """The calls written in `content`, in order, and the text around them (trimmed)."""
    calls = list(_calls(content))
    rest: list[str] = []
    position = 0
    for call in calls:
        rest.append(content[position : call.start])
        position = call.end
    rest.append(content[position:])
    return calls, "".join(rest).strip()


def _calls(content: str) -> Iterator[TextCall]:
    for match in _BLOCK.finditer(content):
        body = match.group(1)
        read = _hermes(body) or _glm(body)
        if read is not None:
            yield TextCall(read[0], read[1], match.start(), match.end())


def _hermes(body: str) -> tuple[str, dict[str, Any]] | None:
    """`{"name": ..., "arguments": {...}}` (or "parameters"; arguments as JSON text too)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    call = cast("dict[str, Any]", value)
    name = call.get("name")
    arguments = call.get("arguments", call.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            return None
    if not isinstance(name, str) or not name or not isinstance(arguments, Mapping):
        return None
    return name, dict(cast("Mapping[str, Any]", arguments))


def _glm(body: str) -> tuple[str, dict[str, Any]] | None:
    """`name<arg_key>k</arg_key><arg_value>v</arg_value>...`: a value that is a JSON object
    or array is read as one; any other is its text (validation converts "3" for a number
    field, as it does in JSON arguments)."""
    head = _GLM_NAME.match(body)
    if head is None:
        return None
    arguments: dict[str, Any] = {}
    position = head.end()
    while position < len(body):
        pair = _GLM_ARGUMENT.match(body, position)
        if pair is None:
            if body[position:].strip():
                return None  # text that is neither an argument nor the block's end
            break
        arguments[pair.group(1).strip()] = _glm_value(pair.group(2))
        position = pair.end()
    return head.group(1), arguments


def _glm_value(text: str) -> object:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return json.loads(stripped)
        except (ValueError, RecursionError):
            pass
    return text
