"""How a Chat Completions turn ended and which of its calls were cut: the rules the
adapter (reading a `ChatCompletion`) and the stream (folding its chunks) both apply."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .text_calls import holds_text_call

if TYPE_CHECKING:
    from ..._turn import TurnStatus

__all__ = ["CUT_FINISH_REASONS", "is_complete_json", "status_of"]

CUT_FINISH_REASONS = ("length", "content_filter")
"""Finish reasons that stop the model wherever it is, possibly inside a call."""


def status_of(
    finish_reason: str | None, refused: bool, called: bool, content: object = None
) -> TurnStatus:
    """The neutral status of a turn: its finish reason, whether the message holds a
    refusal, whether it holds tool calls (or a legacy `function_call`), and its text
    (an answer whose text holds calls in a known format is not done)."""
    if finish_reason == "length":
        return "truncated"
    if finish_reason == "content_filter" or refused:
        return "refused"
    if called:
        return "tool_calls"
    if isinstance(content, str) and holds_text_call(content):
        return "calls_in_text"
    return "done"


def is_complete_json(text: object) -> bool:
    """Whether arguments in a cut turn were finished (a cut call is answered as truncated).

    Text nested too deep for `json.loads` counts as complete: it breaks the depth limit
    either way, and that failure tells the model what to fix.
    """
    if not isinstance(text, str):
        return text is None
    try:
        json.loads(text)
    except ValueError:
        return False
    except RecursionError:
        return True
    return True
