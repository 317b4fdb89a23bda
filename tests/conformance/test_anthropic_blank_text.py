"""Blank text in recorded Anthropic turns: the replay never sends a message the API refuses
for its text ("text content blocks must contain non-whitespace text").

The live API takes whitespace text beside other blocks (`[text "\\n\\n", tool_use]`) but
refuses a message whose only content is whitespace text, and the model does return such
turns (a lone `"\\n\\n"` after tool results). Each test edits a recorded response.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import Message, MessageParam

from tests.testing._corpus import corpus_case
from toolwire.core import assistant_messages
from toolwire.testing import HistoryProblem, check_history

PARALLEL = "models__anthropic__test_output__test_mixed_tools_basemodel_output__i0"
"""A recorded turn of two tool_use blocks (get_population and get_area, London)."""


def _recorded(content: list[dict[str, Any]], stop_reason: str) -> Message:
    """The recorded response of PARALLEL with `content` and `stop_reason` instead."""
    response = corpus_case(PARALLEL)["response"]
    return Message.model_validate({**response, "content": content, "stop_reason": stop_reason})


def test_a_turn_of_whitespace_text_replays_as_no_message() -> None:
    """A turn whose only text is whitespace gives no assistant message, as an empty one does."""
    blank = [{"type": "text", "text": "\n\n"}, {"type": "text", "text": " "}]
    assert assistant_messages(_recorded(blank, "end_turn"), "anthropic") == []


def test_whitespace_text_beside_tool_use_is_replayed() -> None:
    """Whitespace text next to the recorded tool_use blocks stays, as the API accepts it."""
    uses: list[dict[str, Any]] = corpus_case(PARALLEL)["response"]["content"]
    replayed = assistant_messages(
        _recorded([{"type": "text", "text": "\n\n"}, *uses], "tool_use"), "anthropic"
    )
    expected: list[MessageParam] = [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "\n\n"},
                *(
                    {"type": "tool_use", "id": u["id"], "name": u["name"], "input": u["input"]}
                    for u in uses
                ),
            ],
        }
    ]
    assert replayed == expected


def test_check_history_refuses_the_blank_turn_and_accepts_its_replay() -> None:
    """The recorded follow-up, then a blank turn and a user message: sent as the SDK's own
    `to_param()` it is reported; replayed by `assistant_messages` it passes."""
    followup: list[MessageParam] = corpus_case(PARALLEL)["followup_request"]["messages"]
    turn = _recorded([{"type": "text", "text": "\n\n"}], "end_turn")
    question: MessageParam = {"role": "user", "content": "And Paris?"}
    as_sent = [*followup, turn.to_param(), question]
    assert check_history(as_sent, "anthropic") == [
        HistoryProblem(
            len(followup),
            f"messages[{len(followup)}] (assistant) holds only whitespace text, and the API "
            'rejects that ("text content blocks must contain non-whitespace text"); drop the '
            "blank text, and the message if nothing is left (assistant_messages leaves out a "
            "turn of blank text)",
        )
    ]
    replayed = [*followup, *assistant_messages(turn, "anthropic"), question]
    assert check_history(replayed, "anthropic") == []
