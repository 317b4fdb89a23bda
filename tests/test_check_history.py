"""check_history: the live APIs' pairing rules on a user's own history, any object form."""

from __future__ import annotations

from inline_snapshot import snapshot

from tests.helpers import chat_completion
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import check_history


class echo(BaseFunctionToolModel[None, None]):
    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


group = ToolGroup.from_list([echo])


def test_a_complete_chat_history_has_no_problems() -> None:
    """Assistant turn and results from toolwire pass, whatever mix of dicts and models."""
    completion = chat_completion(("echo", "{}"), ("echo", "{}"))
    results = group.run_tool_calls(completion, None)
    history = [
        {"role": "user", "content": "hi"},
        completion.choices[0].message,  # an SDK model, as the seed replays it
        *tool_result_messages(results, "chat.completions"),
    ]
    assert check_history(history, "chat.completions") == []
    replayed = [
        {"role": "user", "content": "hi"},
        *assistant_messages(completion, "chat.completions"),
    ]
    assert (
        check_history(
            [*replayed, *tool_result_messages(results, "chat.completions")], "chat.completions"
        )
        == []
    )


def test_problems_are_plain_words_with_positions() -> None:
    """A missing and an orphan result are each named with the id and the fix."""
    completion = chat_completion(("echo", "{}", "call_a"), ("echo", "{}", "call_b"))
    (first, _) = group.run_tool_calls(completion, None)
    orphan = group.run_tool_call(StandardToolCall("function", "call_x", "echo", "{}"), None)
    history = [
        {"role": "user", "content": "hi"},
        *assistant_messages(completion, "chat.completions"),
        first.tool_message,
        orphan.tool_message,
    ]
    assert [p.message for p in check_history(history, "chat.completions")] == snapshot(
        [
            "messages[1] (assistant) has tool call 'call_b' (echo) with no tool message answering it; append one role='tool' message per call id right after it",
            "messages[3] (tool) answers tool call 'call_x', which messages[1] (assistant) did not make (its calls: 'call_a', 'call_b'); use the id of one of its calls",
        ]
    )
