"""Checking argument limits costs memory proportional to the input at most.

A regular expression that kept backtracking state per character of a JSON string made a
1 MB string argument of ordinary code peak at ~124 MB during dispatch (1.4 GB for 10 MB),
and the stream scanner had the same pattern. Memory is deterministic enough to assert;
time is not, so nothing here is timed.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable

from tests.helpers import chat_completion
from toolwire._streaming._scanner import JsonScanner
from toolwire.core import ArgumentLimits, BaseFunctionToolModel, ToolGroup

LINE = 'def f(x):\n    return "a\\"b" + \'c\' + str([1, {2: 3}])  # \\\\ {[\n'
CODE = LINE * (1_000_000 // len(LINE))
"""About 1 MB of code: quotes, escapes and brackets, as a model writes a file."""
ARGUMENTS = json.dumps({"path": "a.py", "content": CODE})


class write_file(BaseFunctionToolModel[None, None]):
    """Write a file."""

    path: str
    content: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"wrote {len(self.content)} characters", None


def peak_bytes(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_dispatching_a_megabyte_of_code_costs_about_the_text() -> None:
    """The limit check, validation and the handler together stay within a few times the
    argument's size (the validated `content` string itself is one copy)."""
    group = ToolGroup.from_list([write_file])
    response = chat_completion(("write_file", ARGUMENTS, "call_1"))
    limits = ArgumentLimits(max_chars=2_000_000)
    results: list[object] = []
    peak = peak_bytes(lambda: results.extend(group.run_tool_calls(response, None, limits=limits)))
    assert peak < 4 * len(ARGUMENTS), f"{peak:,} bytes for {len(ARGUMENTS):,} characters"
    assert [getattr(r, "fail_reason") for r in results] == [None]  # noqa: B009


def test_scanning_a_megabyte_fragment_costs_about_the_text() -> None:
    """A backend that sends a whole call in one fragment: the stream scanner's string
    regex keeps no per-character state either."""
    scanner = JsonScanner()
    peak = peak_bytes(lambda: scanner.feed(ARGUMENTS))
    assert scanner.complete()
    assert peak < 4 * len(ARGUMENTS), f"{peak:,} bytes for {len(ARGUMENTS):,} characters"
