"""The texts a model sees when its call fails: short, specific, and bounded.

Every text says what was wrong and what to do next. Nothing here echoes more
than a few dozen characters of the model's own input, carries pydantic's
documentation URLs, or grows without bound, whatever the input.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pydantic
from pydantic_core import ErrorDetails

__all__ = [
    "MAX_FEEDBACK_CHARS",
    "explicit_error",
    "glued_objects",
    "invalid_json",
    "limit_exceeded",
    "not_an_object",
    "retries_exhausted",
    "truncated",
    "unknown_tool",
    "validation_errors",
]

MAX_FEEDBACK_CHARS = 2000
"""Upper bound on any failure text toolwire writes itself."""

_MAX_ERRORS_LISTED = 8
_MAX_NAME_CHARS = 64
_MAX_VALUE_CHARS = 40
_LONGEST_INT_BITS = 256
"""Longer ints are described, not printed (Python refuses to print ints of 4,300+ digits)."""


def shown(text: str, limit: int = _MAX_NAME_CHARS) -> str:
    """`text` quoted and escaped for display (NUL bytes and all), cut to `limit` chars."""
    if len(text) > limit:
        return repr(text[:limit])[:-1] + "...'"
    return repr(text)


def unknown_tool(name: str, available: Iterable[str]) -> str:
    names = sorted(available)
    listed = ", ".join(names[:50]) + (f" (and {len(names) - 50} more)" if len(names) > 50 else "")
    if not names:
        return f"Unknown tool {shown(name)}: no tools are available."
    return _bounded(
        f"Unknown tool {shown(name)}. Available tools: {listed}. "
        "Call one of them by its exact name."
    )


def truncated(name: str) -> str:
    return (
        f"The call to {shown(name)} was cut off before its arguments were complete (the "
        "response stopped early, at the output length limit or a content filter), so it was "
        "not run. If its arguments were long, call it again with shorter ones (for example, "
        "split the work into several smaller calls)."
    )


def not_an_object(name: str, got: str) -> str:
    return (
        f"The arguments for {shown(name)} must be one JSON object, but they are {got}. "
        'Call it again with an object such as {"field": value}.'
    )


def invalid_json(name: str, error: pydantic.ValidationError) -> str:
    detail = error.errors(include_url=False, include_context=False, include_input=False)
    problem = detail[0]["msg"] if detail else "malformed JSON"
    return _bounded(
        f"The arguments for {shown(name)} are not valid JSON ({problem}). "
        "Call it again with the arguments as one complete JSON object."
    )


def glued_objects(name: str, count: int) -> str:
    return (
        f"The arguments for {shown(name)} are {count} different JSON objects one after the "
        "other, so none was run: a call takes one object. If you meant several calls, "
        "make one call per object; otherwise call it again with the one you meant."
    )


def retries_exhausted(name: str, failures: int) -> str:
    """The note ending a failure that spent its tool's retry budget."""
    return (
        f"{shown(name)} has failed {failures} times in a row, more than it may be retried: "
        "stop calling it. Tell the user what went wrong, or go on without it."
    )


def limit_exceeded(name: str, problem: str) -> str:
    return (
        f"The arguments for {shown(name)} were rejected: {problem}. "
        "Call it again with smaller, flatter arguments."
    )


def validation_errors(name: str, error: pydantic.ValidationError) -> str:
    """One line per error: the field path, the problem (with allowed values), what was sent."""
    errors = error.errors(include_url=False)
    count = len(errors)
    lines = [
        f"Invalid arguments for {shown(name)}: {count} error{'s' if count != 1 else ''}. "
        "Fix them and call the tool again."
    ]
    for item in errors[:_MAX_ERRORS_LISTED]:
        location = _location(item["loc"]) or "(arguments)"
        line = f"- {location}: {_message(item)}"
        if item["type"] not in ("missing", "extra_forbidden"):
            line += f" (got {_value(item.get('input'))})"
        lines.append(line)
    if count > _MAX_ERRORS_LISTED:
        lines.append(f"- ... and {count - _MAX_ERRORS_LISTED} more")
    return _bounded("\n".join(lines))


def explicit_error(error: BaseException) -> str:
    """The text of an `ErrorForLLMToSee`: the handler's own words, as written."""
    text = str(error)
    return text if text else "The tool reported an error without details."


def _location(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for piece in loc:
        if isinstance(piece, int):
            parts.append(f"[{piece}]")
        else:
            parts.append(("." if parts else "") + shown(piece, 40).strip("'"))
    return "".join(parts)


def _message(item: ErrorDetails) -> str:
    """pydantic's message for one error, with any input it quotes cut short.

    A discriminated union's message quotes the tag the model sent, whatever its length.
    """
    message = item["msg"]
    context = item.get("ctx") or {}
    for key in _QUOTED_INPUT:
        quoted = context.get(key)
        if isinstance(quoted, str) and len(quoted) > _MAX_VALUE_CHARS:
            message = message.replace(quoted, quoted[: _MAX_VALUE_CHARS - 3] + "...")
    return message


_QUOTED_INPUT = ("tag",)
"""Context keys whose values pydantic copies from the input into an error message."""


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, int) and value.bit_length() > _LONGEST_INT_BITS:
        return f"an integer of about {value.bit_length() * 30103 // 100000 + 1:,} digits"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 3] + "..."
    return text


def _bounded(text: str) -> str:
    if len(text) <= MAX_FEEDBACK_CHARS:
        return text
    return text[: MAX_FEEDBACK_CHARS - 4] + "\n..."
