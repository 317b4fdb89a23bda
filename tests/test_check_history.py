"""check_history: the live APIs' pairing rules on a user's own history, any object form."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot
from openai.types.responses import Response

from tests.helpers import chat_completion
from tests.shared_data import all_cases
from toolwire.core import (
    BaseFunctionToolModel,
    StandardToolCall,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import UnexpectedObjectError
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


def _chained_cases() -> list[Any]:
    """Recorded Responses follow-ups sent with previous_response_id (the API took them)."""
    return [
        pytest.param(case, id=case["id"])
        for case in all_cases()
        if case["api"] == "openai-responses"
        and not case["stream"]
        and _previous_id(case)
        and case["followup_status"] == 200
    ]


def _previous_id(case: dict[str, Any]) -> object:
    follow_up: dict[str, Any] = case.get("followup_request") or {}
    return follow_up.get("previous_response_id")


@pytest.mark.parametrize("case", _chained_cases())
def test_results_chained_with_previous_response_id_check_against_that_response(
    case: dict[str, Any],
) -> None:
    """The follow-up sends only the results; the previous response holds their calls."""
    previous = Response.construct(**case["response"])  # as the SDK builds it: leniently
    follow_up = case["followup_request"]["input"]
    assert check_history(follow_up, "responses", previous_response=previous) == []
    assert check_history(follow_up, "responses", previous_response=case["response"]) == []
    alone = check_history(follow_up, "responses")
    assert alone and all("pass that response as previous_response=" in p.message for p in alone)


def test_a_call_of_the_previous_response_left_unanswered() -> None:
    previous = Response.model_validate(
        {"id": "resp_1", "object": "response", "created_at": 0, "model": "m",
         "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
         "tools": [], "output": [
             {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "a",
              "arguments": "{}", "status": "completed"},
             {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "b",
              "arguments": "{}", "status": "completed"},
         ]}
    )  # fmt: skip
    results = [{"type": "function_call_output", "call_id": "call_1", "output": "ok"}]
    assert [
        (p.index, p.message)
        for p in check_history(results, "responses", previous_response=previous)
    ] == snapshot(
        [
            (
                -1,
                "the previous response's output[1] (function_call 'call_2', b) has no function_call_output with call_id 'call_2' after it; append one function_call_output item per call, carrying its call_id",
            )
        ]
    )


def test_previous_response_is_for_responses_only() -> None:
    with pytest.raises(UnexpectedObjectError, match="previous_response is for Responses"):
        check_history([], "anthropic", previous_response={"object": "response", "output": []})
    with pytest.raises(UnexpectedObjectError, match="previous_response must be the Response"):
        check_history([], "responses", previous_response={"output": []})


def test_an_anthropic_history_ending_on_unanswered_tool_use() -> None:
    """A history whose last assistant turn holds tool_use blocks with no tool_result
    after it is reported (without `../shared`: the recorded corpus is not needed)."""
    history: list[Any] = [
        {"role": "user", "content": "Weather in Paris and Oslo?"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Oslo"}},
            ],
        },
    ]  # fmt: skip
    assert [(p.index, p.message) for p in check_history(history, "anthropic")] == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_1' (get_weather) with no user message after it; append one user message that begins with a tool_result block for each tool_use id",
            ),
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_2' (get_weather) with no user message after it; append one user message that begins with a tool_result block for each tool_use id",
            ),
        ]
    )
    answered = [
        *history,
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Sunny."},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "Rain."},
            ],
        },
    ]
    assert check_history(answered, "anthropic") == []
