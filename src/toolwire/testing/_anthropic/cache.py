"""The Messages API's limit on prompt-cache breakpoints: at most four blocks with
`cache_control` in one request, tools, system and messages together (live: "A maximum
of 4 blocks with cache_control may be provided. Found 5."). A loop that marks every
turn's results (`tool_result_messages(..., cache_breakpoint=True)`) reaches it on the
fifth turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .._rules import HistoryProblem, blocks_of, field

__all__ = ["MAX_BREAKPOINTS", "breakpoint_count", "breakpoint_problems"]

MAX_BREAKPOINTS = 4


def breakpoint_count(blocks: object) -> int:
    """The blocks with `cache_control` in a list of tool definitions, system blocks or
    content blocks, with the blocks nested in a `tool_result`'s content."""
    if not isinstance(blocks, Sequence) or isinstance(blocks, str):
        return 0
    count = 0
    for block in cast("Sequence[object]", blocks):
        count += field(block, "cache_control") is not None
        count += breakpoint_count(field(block, "content"))
    return count


def breakpoint_problems(
    messages: Sequence[Mapping[str, Any]], *, outside: int = 0
) -> list[HistoryProblem]:
    """The problem of a request with more than four breakpoints, at the message that
    holds the fifth; `outside` counts those of its tools and system first."""
    total = outside
    found: int | None = -1 if total > MAX_BREAKPOINTS else None
    for index, message in enumerate(messages):
        total += breakpoint_count(blocks_of(message, "content"))
        if found is None and total > MAX_BREAKPOINTS:
            found = index
    if found is None:
        return []
    where = f"messages[{found}] holds" if found >= 0 else "the tools and system hold"
    return [
        HistoryProblem(
            found,
            f"{where} the cache_control breakpoint past the fourth (tools, system and "
            f"messages count together): a maximum of {MAX_BREAKPOINTS} blocks with "
            f"cache_control may be provided. Found {total}. Keep breakpoints on the tools "
            "and the last long results only (drop them from older turns).",
        )
    ]
