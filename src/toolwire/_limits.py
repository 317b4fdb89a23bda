"""Size and depth limits on tool-call arguments, checked before validation.

Arguments are untrusted text written by a model. A limit turns an oversized or
absurdly nested payload into an `invalid_arguments` failure result up front,
instead of a slow parse, a `RecursionError` later on, or a huge error echo.
Both checks are iterative (no recursion) and linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
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
            string values (a `str` subclass, such as a `StrEnum` member, is a string)
            plus one per value, a close, cheap stand-in for JSON size.
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
    Lists and tuples nest, their subclasses do not (like any other value, they count
    one); a key counts its length if it is a string, 8 if not.
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
                if kind is int or kind is float or kind is bool or value is None:
                    continue
                if kind is dict or kind is list or kind is tuple:
                    nested.append((value, 2))
                elif isinstance(value, str):  # a str subclass (a StrEnum member): its length
                    size += len(value)
                elif isinstance(value, Mapping):
                    nested.append((value, 2))  # pyright: ignore[reportUnknownArgumentType]
    except TypeError:  # a key without a length (a hand-built dict): the general walk
        return _check_nested([(top, 1)], 2, limits)
    if size > limits.max_chars:
        return _too_large(limits)
    return _check_nested(nested, size, limits) if nested else None


def _check_nested(stack: list[tuple[Any, int]], size: int, limits: ArgumentLimits) -> str | None:
    """Walk the containers on `stack` (each with its depth), adding to `size`.

    A list or tuple of strings (tags, lines) is summed by one `str.join`, a large
    container of scalars or of strings by a few C calls on its set of value types: the
    per-value loop runs only for small or mixed containers.
    """
    while stack:
        node, depth = stack.pop()
        if depth > limits.max_depth:
            return _too_deep(limits)
        kind: type[Any] = type(node)  # pyright: ignore[reportUnknownVariableType]
        children: Collection[Any]
        if kind is dict or not (kind is list or kind is tuple):
            mapping: Mapping[Any, Any] = node
            children = mapping.values()
            for key in mapping:
                size += len(key) if type(key) is str else 8
        else:
            children = node
            if node and type(node[0]) is str:  # likely all strings: one C call, if so
                try:
                    size += len(node) + len(_join(node))
                except TypeError:  # not all strings after all: the loop below
                    pass
                else:
                    if size > limits.max_chars:
                        return _too_large(limits)
                    continue
        count = len(children)
        size += count  # one per value
        if count >= _SORTED_FROM:
            kinds = set(map(type, children))
            if kinds <= _SCALARS:
                if size > limits.max_chars:
                    return _too_large(limits)
                continue
            if kinds <= _STR_ONLY:
                size += sum(map(len, children))
                if size > limits.max_chars:
                    return _too_large(limits)
                continue
        deeper = depth + 1
        for value in children:
            kind = type(value)  # pyright: ignore[reportUnknownVariableType]
            if kind is str:
                size += len(value)
            elif kind is dict or kind is list or kind is tuple:
                stack.append((value, deeper))
            elif not (kind is int or kind is float or kind is bool or value is None):
                if isinstance(value, str):  # a str subclass (a StrEnum member): its length
                    size += len(value)
                elif isinstance(value, Mapping):
                    stack.append((value, deeper))  # pyright: ignore[reportUnknownArgumentType]
        if size > limits.max_chars:
            return _too_large(limits)
    return None


_join = "".join

_SORTED_FROM = 16
"""From this many values, a container's set of value types (one C pass) tells whether
it holds only scalars or only strings, so no per-value loop is needed."""

_SCALARS: frozenset[type] = frozenset((int, float, bool, type(None)))
_STR_ONLY: frozenset[type] = frozenset((str,))


def _too_large(limits: ArgumentLimits) -> str:
    return f"the arguments are larger than the limit of {limits.max_chars:,} characters"


def _too_deep(limits: ArgumentLimits) -> str:
    return f"the arguments are nested deeper than the limit of {limits.max_depth} levels"
