"""History rules of OpenAI Chat Completions, on the request's `messages` list.

What the live API rejects, and how each rule reads:

- an assistant message whose `tool_calls` are not all answered by `role="tool"`
  messages right after it (before the next non-tool message); the live
  error is "An assistant message with 'tool_calls' must be followed by tool
  messages responding to each 'tool_call_id'";
- a tool message that does not answer a call of the assistant message right
  before its run of tool messages ("messages with role 'tool' must be a
  response to a preceeding message with 'tool_calls'");
- a second answer to the same call, a call or tool message without an id,
  and an empty `tool_calls` list (the live API wants at least one entry).

Accepted as the live API accepts them: replayed `message.model_dump()` dicts
with None-valued keys (`tool_calls: None`, `function_call: None`,
`audio: None`, `refusal: None`, `annotations: []`, `parsed`...), tool
messages in any order within their run, custom tool calls, and a provider
id repeated within one message as long as each repeat gets its own answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .._rules import HistoryProblem, field, quoted, sorted_problems, text_field

__all__ = ["chat_history_problems"]


class _Turn:
    """The tool calls of one assistant message, while its tool messages are read."""

    def __init__(self, index: int, calls: list[tuple[str, str]]) -> None:
        self.index = index
        self.calls = calls
        self.waiting = Counter(call_id for call_id, _ in calls)
        self.answered_at: dict[str, int] = {}


def chat_history_problems(messages: Sequence[Mapping[str, Any]]) -> list[HistoryProblem]:
    """Every reason the Chat Completions API would reject `messages`, in order."""
    problems: list[HistoryProblem] = []
    owner: dict[str, int] = {}
    turn: _Turn | None = None
    for index, message in enumerate(messages):
        role = text_field(message, "role")
        if role == "tool":
            problems += _tool_message(index, message, turn, owner)
            continue
        if turn is not None:
            problems += _unanswered(turn)
            turn = None
        if role == "assistant":
            turn, found = _assistant_turn(index, message)
            problems += found
            if turn is not None:
                owner.update((call_id, index) for call_id, _ in turn.calls)
    if turn is not None:
        problems += _unanswered(turn)
    return sorted_problems(problems)


def _assistant_turn(
    index: int, message: Mapping[str, Any]
) -> tuple[_Turn | None, list[HistoryProblem]]:
    raw = field(message, "tool_calls")
    if raw is None or not isinstance(raw, Sequence) or isinstance(raw, str):
        return None, []
    entries = cast(Sequence[Any], raw)
    if not entries:
        return None, [
            HistoryProblem(
                index,
                f"messages[{index}] (assistant) has an empty tool_calls list; leave "
                "tool_calls out when the message makes no calls",
            )
        ]
    problems: list[HistoryProblem] = []
    calls: list[tuple[str, str]] = []
    for position, call in enumerate(entries):
        name = _call_name(call)
        call_id = text_field(call, "id")
        if not call_id:
            problems.append(
                HistoryProblem(
                    index,
                    f"messages[{index}] (assistant) has tool call #{position + 1} ({name}) with "
                    "no id; give every tool call a non-empty id and repeat it as the "
                    "tool_call_id of its tool message",
                )
            )
            continue
        calls.append((call_id, name))
    return _Turn(index, calls), problems


def _call_name(call: object) -> str:
    for kind in ("function", "custom"):
        name = text_field(field(call, kind), "name")
        if name:
            return name
    return "unnamed"


def _tool_message(
    index: int, message: Mapping[str, Any], turn: _Turn | None, owner: dict[str, int]
) -> list[HistoryProblem]:
    call_id = text_field(message, "tool_call_id")
    if not call_id:
        return [
            HistoryProblem(
                index,
                f"messages[{index}] (tool) has no tool_call_id; set it to the id of the "
                "call it answers",
            )
        ]
    elsewhere = ""
    if call_id in owner and (turn is None or owner[call_id] != turn.index):
        elsewhere = (
            f"; {call_id!r} was called in messages[{owner[call_id]}], so its tool message "
            "belongs right after that message"
        )
    if turn is None:
        return [
            HistoryProblem(
                index,
                f"messages[{index}] (tool) answers tool call {call_id!r}, but the message "
                "before it is not an assistant message with tool calls; put each tool "
                f"message right after the assistant message that made the call{elsewhere}",
            )
        ]
    if turn.waiting[call_id] > 0:
        turn.waiting[call_id] -= 1
        turn.answered_at.setdefault(call_id, index)
        return []
    if call_id in turn.answered_at:
        return [
            HistoryProblem(
                index,
                f"messages[{index}] (tool) answers tool call {call_id!r} a second time "
                f"(messages[{turn.answered_at[call_id]}] already did); send exactly one tool "
                "message per call id",
            )
        ]
    made = quoted(dict.fromkeys(call for call, _ in turn.calls))
    return [
        HistoryProblem(
            index,
            f"messages[{index}] (tool) answers tool call {call_id!r}, which "
            f"messages[{turn.index}] (assistant) did not make (its calls: {made}); use "
            f"the id of one of its calls{elsewhere}",
        )
    ]


def _unanswered(turn: _Turn) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    left = Counter(turn.waiting)
    for call_id, name in turn.calls:
        if left[call_id] > 0:
            left[call_id] -= 1
            problems.append(
                HistoryProblem(
                    turn.index,
                    f"messages[{turn.index}] (assistant) has tool call {call_id!r} ({name}) "
                    "with no tool message answering it; append one role='tool' message per "
                    "call id right after it",
                )
            )
    return problems
