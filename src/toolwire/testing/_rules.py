"""What the history rules report, and helpers the per-API rule modules share.

Each API's package in the testing wing has a `history` module with one
function that takes the history as the wire JSON the SDK sends (the request
body's `messages`, `input` or `contents` list) and returns every problem the
live API would reject it for, in plain words. The fakes run them on each
request body; `toolwire.testing.check_history` runs them on a user's own
history.

A problem's `index` is the 0-based position in that list, and its message
names positions the same way (`messages[3]`, `input[5]`, `contents[2]`), so
it reads like the Python expression that finds the entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["HistoryProblem", "blocks_of", "field", "quoted", "sorted_problems", "text_field"]


@dataclass(frozen=True, slots=True)
class HistoryProblem:
    """One reason an API would reject a history, and what to do about it."""

    index: int
    """Position (from 0) of the message, input item or content the problem is about."""
    message: str
    """Plain words: what is wrong, which ids, and how to fix it."""


def sorted_problems(problems: Iterable[HistoryProblem]) -> list[HistoryProblem]:
    """Problems in history order (stable for problems about the same entry)."""
    return sorted(problems, key=lambda p: p.index)


def field(entry: object, key: str, *aliases: str) -> Any:
    """`entry[key]` (or an alias), with None for a missing key or a non-mapping entry.

    Replayed SDK dumps carry keys whose value is None; they mean "absent".
    """
    if not isinstance(entry, Mapping):
        return None
    mapping = cast(Mapping[str, Any], entry)
    for name in (key, *aliases):
        value = mapping.get(name)
        if value is not None:
            return value
    return None


def text_field(entry: object, key: str, *aliases: str) -> str:
    """A string field, or "" when it is missing, None or not a string."""
    value = field(entry, key, *aliases)
    return value if isinstance(value, str) else ""


def blocks_of(entry: object, key: str) -> list[Mapping[str, Any]]:
    """The mapping items of a list field (content blocks, parts); [] for a string or None."""
    value = field(entry, key)
    if isinstance(value, str) or not isinstance(value, Sequence):
        return []
    items = cast(Sequence[Any], value)
    return [cast(Mapping[str, Any], b) for b in items if isinstance(b, Mapping)]


def quoted(values: Iterable[str]) -> str:
    """`'a', 'b'` for a message."""
    return ", ".join(repr(v) for v in values)
