"""Chat Completions history rules, on recorded traffic and on broken variants of it."""

from __future__ import annotations

from typing import Any

from inline_snapshot import snapshot
from openai.types.chat import ChatCompletion

from toolwire.testing._openai_chat.history import chat_history_problems
from toolwire.testing._rules import HistoryProblem

from ._corpus import accepted_followups, corpus_case, corpus_cases

PARALLEL = "test_prefect__test_prefect_agent_with_hitl_tool__i0"
"""system, user, assistant with calls HMK... (delete_file) and CAES... (create_file), 2 tool messages."""


def _pairs(problems: list[HistoryProblem]) -> list[tuple[int, str]]:
    return [(p.index, p.message) for p in problems]


def _messages() -> list[dict[str, Any]]:
    return corpus_case(PARALLEL)["followup_request"]["messages"]


def test_every_accepted_followup_has_no_problems() -> None:
    """Every chat follow-up the live API accepted (status 200) passes the rules."""
    followups = accepted_followups("openai-chat")
    found = {
        case_id: _pairs(chat_history_problems(body["messages"])) for case_id, body in followups
    }
    assert {k: v for k, v in found.items() if v} == {}
    assert len(followups) == snapshot(44)


def test_every_recorded_request_has_no_problems() -> None:
    """The requests that produced the recorded calls are valid histories too."""
    cases = [c for c in corpus_cases() if c["api"] == "openai-chat"]
    found = {c["id"]: _pairs(chat_history_problems(c["request"]["messages"])) for c in cases}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(cases) == snapshot(63)


def test_replayed_model_dump_with_none_keys_is_accepted() -> None:
    """A replayed `message.model_dump()` (None-valued keys, annotations) passes, as it did live."""
    case = corpus_case(PARALLEL)
    completion = ChatCompletion.construct(**case["response"])
    dumped = completion.choices[0].message.model_dump()
    assert {"function_call", "audio", "refusal", "annotations"} <= dumped.keys()
    messages = _messages()
    messages[2] = dumped
    assert chat_history_problems(messages) == []


def test_dropped_result() -> None:
    """A call whose tool message was dropped is named with its id and tool."""
    messages = _messages()
    del messages[3]
    assert _pairs(chat_history_problems(messages)) == snapshot(
        [
            (
                2,
                "messages[2] (assistant) has tool call 'call_HMKxpFuWMpNPfuK5352En5En' (delete_file) with no tool message answering it; append one role='tool' message per call id right after it",
            )
        ]
    )


def test_results_out_of_place() -> None:
    """A tool message after a user message is unanswered where needed and orphaned where sent."""
    messages = _messages()
    messages.insert(4, {"role": "user", "content": "go on"})
    assert _pairs(chat_history_problems(messages)) == snapshot(
        [
            (
                2,
                "messages[2] (assistant) has tool call 'call_CAES42XVgl0EvrUmnIoHkMSS' (create_file) with no tool message answering it; append one role='tool' message per call id right after it",
            ),
            (
                5,
                "messages[5] (tool) answers tool call 'call_CAES42XVgl0EvrUmnIoHkMSS', but the message before it is not an assistant message with tool calls; put each tool message right after the assistant message that made the call; 'call_CAES42XVgl0EvrUmnIoHkMSS' was called in messages[2], so its tool message belongs right after that message",
            ),
        ]
    )


def test_results_in_any_order_within_their_run() -> None:
    """Swapping the two tool messages is accepted: the API pairs them by id."""
    messages = _messages()
    messages[3], messages[4] = messages[4], messages[3]
    assert chat_history_problems(messages) == []


def test_unknown_and_duplicate_answers() -> None:
    """An answer to an id the assistant did not make, and a second answer, are both reported."""
    messages = _messages()
    messages[4] = {**messages[4], "tool_call_id": "call_nope"}
    messages.append(dict(messages[3]))
    assert _pairs(chat_history_problems(messages)) == snapshot(
        [
            (
                2,
                "messages[2] (assistant) has tool call 'call_CAES42XVgl0EvrUmnIoHkMSS' (create_file) with no tool message answering it; append one role='tool' message per call id right after it",
            ),
            (
                4,
                "messages[4] (tool) answers tool call 'call_nope', which messages[2] (assistant) did not make (its calls: 'call_HMKxpFuWMpNPfuK5352En5En', 'call_CAES42XVgl0EvrUmnIoHkMSS'); use the id of one of its calls",
            ),
            (
                5,
                "messages[5] (tool) answers tool call 'call_HMKxpFuWMpNPfuK5352En5En' a second time (messages[3] already did); send exactly one tool message per call id",
            ),
        ]
    )


def test_history_ending_with_calls() -> None:
    """A history cut right after the assistant's calls reports every call."""
    messages = _messages()[:3]
    assert [p.index for p in chat_history_problems(messages)] == [2, 2]


def test_missing_ids_and_empty_tool_calls() -> None:
    """Calls and tool messages without ids, and an empty tool_calls list, are reported."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "ok", "tool_calls": []},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "content": "done", "tool_call_id": None},
    ]
    assert _pairs(chat_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has an empty tool_calls list; leave tool_calls out when the message makes no calls",
            ),
            (
                2,
                "messages[2] (assistant) has tool call #1 (f) with no id; give every tool call a non-empty id and repeat it as the tool_call_id of its tool message",
            ),
            (3, "messages[3] (tool) has no tool_call_id; set it to the id of the call it answers"),
        ]
    )


def test_repeated_provider_id_needs_one_answer_per_call() -> None:
    """Two calls sharing an id are fine with two answers, and one short with one answer."""
    call = {"id": "call_1", "type": "custom", "custom": {"name": "sql", "input": "select 1"}}
    answer = {"role": "tool", "content": "1", "tool_call_id": "call_1"}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [call, call]},
        answer,
        answer,
    ]
    assert chat_history_problems(messages) == []
    assert _pairs(chat_history_problems(messages[:3])) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool call 'call_1' (sql) with no tool message answering it; append one role='tool' message per call id right after it",
            )
        ]
    )
