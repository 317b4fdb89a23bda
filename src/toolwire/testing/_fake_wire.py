"""How the fake codecs write and read the wire: a call's arguments as JSON text or as a
dict, server-sent events, text cut into stream-sized pieces, and the JSON lists and the
latest round of results in a request body. Every API's `fake.py` uses these; the fake's
model (replies, requests, the server) stays in `_fake.py`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ._rules import field as json_field

if TYPE_CHECKING:
    from ._fake import FakeCall

__all__ = [
    "arguments_dict",
    "arguments_text",
    "joined_text",
    "json_list",
    "latest_results",
    "split_text",
    "sse",
]


def arguments_text(call: FakeCall) -> str:
    """The call's arguments as the wire carries them (JSON text for dicts)."""
    if isinstance(call.arguments, str):
        return call.arguments
    return json.dumps(call.arguments)


def arguments_dict(call: FakeCall) -> Any:
    """The call's arguments as a JSON value (for APIs that send dicts); raw text that is
    not JSON is sent as a string, which the live API would never do."""
    if isinstance(call.arguments, str):
        try:
            return json.loads(call.arguments)
        except ValueError:
            return call.arguments
    return dict(call.arguments)


def sse(events: Iterable[tuple[str | None, Any]]) -> bytes:
    """Server-sent events: `(event name or None, JSON data or raw string)` pairs."""
    lines: list[str] = []
    for name, data in events:
        if name is not None:
            lines.append(f"event: {name}")
        lines.append(f"data: {data if isinstance(data, str) else json.dumps(data)}")
        lines.append("")
    return ("\n".join(lines) + "\n").encode()


def split_text(text: str, size: int = 24) -> list[str]:
    """`text` in pieces of `size` characters, for streaming."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def json_list(value: Any) -> list[Any]:
    """`value` as a list when the JSON holds one there, else []."""
    return list(cast("list[Any]", value)) if isinstance(value, list | tuple) else []


def latest_results(entries: Sequence[Any], is_result: Callable[[Any], bool], key: str) -> list[str]:
    """The texts (under `key`) of the results that end `entries`: the latest round's."""
    start = len(entries)
    while start > 0 and is_result(entries[start - 1]):
        start -= 1
    return [joined_text(json_field(entry, key)) for entry in entries[start:]]


def joined_text(content: Any) -> str:
    """A message's text: the string itself, or its parts' "text" values joined."""
    if isinstance(content, str):
        return content
    parts = [json_field(p, "text") for p in json_list(content)]
    return "".join(p for p in parts if isinstance(p, str))
