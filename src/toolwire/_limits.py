"""Size and depth limits on tool-call arguments, checked before validation.

Arguments are untrusted text written by a model. A limit turns an oversized or
absurdly nested payload into an `invalid_arguments` failure result up front,
instead of a slow parse, a `RecursionError` later on, or a huge error echo.
Both checks are iterative (no recursion) and linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_LIMITS", "MAX_DEPTH_CEILING", "ArgumentLimits", "check_dict", "check_text"]

MAX_DEPTH_CEILING = 200
"""pydantic's JSON parser refuses nesting past 200 levels, so no limit may exceed it."""


@dataclass(frozen=True, slots=True)
class ArgumentLimits:
    """Limits applied to every call's arguments, whatever the API.

    Attributes:
        max_chars: largest accepted arguments, in characters of JSON text. For dict
            arguments (Anthropic, Gemini) the count is the total length of keys and
            string values plus one per value, a close, cheap stand-in for JSON size.
        max_depth: deepest accepted nesting of objects and arrays (the arguments
            object itself is depth 1). At most 200.
    """

    max_chars: int = 1 << 20
    max_depth: int = 64

    always_within: int = field(init=False, repr=False, compare=False)
    """JSON text no longer than this cannot break either limit (each nesting level
    needs a bracket), so it needs no scan."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "always_within", min(self.max_chars, self.max_depth))
        if not 1 <= self.max_depth <= MAX_DEPTH_CEILING:
            raise ValueError(
                f"max_depth must be between 1 and {MAX_DEPTH_CEILING} "
                f"(pydantic's JSON parser stops at {MAX_DEPTH_CEILING}); got {self.max_depth}."
            )
        if self.max_chars < 2:
            raise ValueError(
                f"max_chars must be at least 2 (room for '{{}}'); got {self.max_chars}."
            )


DEFAULT_LIMITS = ArgumentLimits()

_STRING_OR_BRACKET = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?|[\[{]|[\]}]', re.DOTALL)
"""A JSON string (skipped whole: brackets inside it do not nest) or one bracket.

Unrolled (`plain* (escape plain*)*`) and possessive (`*+`): the regex engine keeps no
backtracking state per character or per escape, so a megabyte string argument costs
no extra memory (an alternation inside a plain `*` kept ~100 bytes per character)."""


def check_text(text: str, limits: ArgumentLimits) -> str | None:
    """Return a problem description if JSON `text` breaks a limit, else None."""
    if len(text) > limits.max_chars:
        return f"the arguments are {len(text):,} characters long; the limit is {limits.max_chars:,}"
    # Fast paths: without enough brackets the depth cannot exceed the limit.
    if len(text) <= limits.max_depth or text.count("{") + text.count("[") <= limits.max_depth:
        return None
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token == "{" or token == "[":
            depth += 1
            if depth > limits.max_depth:
                return _too_deep(limits)
        elif token == "}" or token == "]":
            depth -= 1
    return None


def check_dict(data: Any, limits: ArgumentLimits) -> str | None:
    """Return a problem description if dict arguments break a limit, else None.

    Every container is visited once, with an explicit stack (so a cyclic or
    100,000-deep input stops at the limit instead of recursing): the arguments object
    first, then each nested container, the last found first. The size is compared
    after each container and the depth as each is reached, so the first limit broken in
    that order is the one reported. The arguments object of a JSON parser's dict (the
    common case) is read in one plain loop; the nested containers after it.

    The JSON types are told apart by exact type first, so the `Mapping` check (an
    ABC's, many times dearer) runs only for values of other types, never for a list.
    """
    if type(data) is not dict:
        return _check_nested([(data, 1)], 2, limits)
    top: dict[Any, Any] = data  # pyright: ignore[reportUnknownVariableType]
    size = 2 + len(top)
    nested: list[tuple[Any, int]] = []
    try:
        for key, value in top.items():
            kind: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]
            if kind is str:
                size += len(key) + len(value)
            else:
                size += len(key)
                if not (kind is int or kind is float or kind is bool or value is None) and (
                    kind is dict or kind is list or kind is tuple or isinstance(value, Mapping)
                ):
                    nested.append((value, 2))  # pyright: ignore[reportUnknownArgumentType]
    except TypeError:  # a key without a length (a hand-built dict): the general walk
        return _check_nested([(top, 1)], 2, limits)
    if size > limits.max_chars:
        return _too_large(limits)
    return _check_nested(nested, size, limits) if nested else None


def _check_nested(stack: list[tuple[Any, int]], size: int, limits: ArgumentLimits) -> str | None:
    """Walk the containers on `stack` (each with its depth), adding to `size`."""
    while stack:
        node, depth = stack.pop()
        if depth > limits.max_depth:
            return _too_deep(limits)
        kind: type[Any] = type(node)  # pyright: ignore[reportUnknownVariableType]
        children: Iterable[Any]
        if kind is dict or (kind is not list and kind is not tuple and isinstance(node, Mapping)):
            mapping: Mapping[Any, Any] = node  # pyright: ignore[reportUnknownVariableType]
            children = mapping.values()
            for key in mapping:
                size += len(key) if type(key) is str else 8
        else:
            children = node
        deeper = depth + 1
        for value in children:
            kind = type(value)  # pyright: ignore[reportUnknownVariableType]
            if kind is str:
                size += len(value)
            elif kind is dict or kind is list or kind is tuple:
                stack.append((value, deeper))
            elif not (kind is int or kind is float or kind is bool or value is None) and isinstance(
                value, Mapping
            ):
                stack.append((value, deeper))  # pyright: ignore[reportUnknownArgumentType]
            size += 1
        if size > limits.max_chars:
            return _too_large(limits)
    return None


def _too_large(limits: ArgumentLimits) -> str:
    return f"the arguments are larger than the limit of {limits.max_chars:,} characters"


def _too_deep(limits: ArgumentLimits) -> str:
    return f"the arguments are nested deeper than the limit of {limits.max_depth} levels"
