"""Tool definitions of the wrong shape: the fakes answer them with HTTP 400, like the APIs.

Each API nests its function tools differently (PROVIDERS.md, section 0): Chat
Completions wraps them in `function`, Responses is flat, Anthropic has no `type` and an
`input_schema`, Gemini lists `functionDeclarations`. A definition built for one API and
sent to another used to get calls named `''` from the fakes; the live APIs refuse the
request, with the messages each API package's `tools` module writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._fake import RejectedRequest

__all__ = ["ToolDefinitionCheck", "reject_wrong_tool_shapes"]

ToolDefinitionCheck = Callable[[int, Any], str | None]
"""One API's check of the definition `tools[index]`: the live API's error, or None."""


def reject_wrong_tool_shapes(tools: Sequence[Any], check: ToolDefinitionCheck) -> None:
    """Raise `RejectedRequest` with the live API's error for the first definition in
    `tools` that `check` finds it cannot take."""
    for index, tool in enumerate(tools):
        problem = check(index, tool)
        if problem is not None:
            raise RejectedRequest(problem)
