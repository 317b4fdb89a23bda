"""Anthropic Messages history rules, on recorded traffic and on broken variants of it."""

from __future__ import annotations

from typing import Any

from anthropic.types import Message
from inline_snapshot import snapshot

from toolwire.testing._anthropic.history import anthropic_history_problems
from toolwire.testing._rules import HistoryProblem

from ._corpus import accepted_followups, corpus_case, corpus_cases

PARALLEL = "models__anthropic__test_output__test_mixed_tools_basemodel_output__i0"
"""user, assistant with tool_use toolu_01KW... (get_population) and toolu_01XT... (get_area),
then one user message with both tool_result blocks."""


def _pairs(problems: list[HistoryProblem]) -> list[tuple[int, str]]:
    return [(p.index, p.message) for p in problems]


def _messages() -> list[dict[str, Any]]:
    return corpus_case(PARALLEL)["followup_request"]["messages"]


def test_every_accepted_followup_has_no_problems() -> None:
    """Every Anthropic follow-up the live API accepted (status 200) passes the rules."""
    followups = accepted_followups("anthropic")
    found = {i: _pairs(anthropic_history_problems(b["messages"])) for i, b in followups}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(followups) == snapshot(37)


def test_every_recorded_request_has_no_problems() -> None:
    """The requests that produced the recorded calls are valid histories too."""
    cases = [c for c in corpus_cases() if c["api"] == "anthropic"]
    found = {c["id"]: _pairs(anthropic_history_problems(c["request"]["messages"])) for c in cases}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(cases) == snapshot(55)


def test_replayed_model_dump_blocks_are_accepted() -> None:
    """Assistant blocks replayed as `block.model_dump()` (caller None...) pass."""
    case = corpus_case(PARALLEL)
    message = Message.construct(**case["response"])
    messages = _messages()
    messages[1] = {"role": "assistant", "content": [b.model_dump() for b in message.content]}
    assert anthropic_history_problems(messages) == []


def test_dropped_result() -> None:
    """A tool_use whose result was dropped is named with its id and tool."""
    messages = _messages()
    del messages[2]["content"][1]
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01XTbK9b3Attg9LFsW4L6Fr5' (get_area) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            )
        ]
    )


def test_results_split_across_user_messages() -> None:
    """Results for one turn spread over two user messages are reported where the split starts."""
    messages = _messages()
    second = messages[2]["content"].pop()
    messages.append({"role": "user", "content": [second]})
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                3,
                "messages[3] (user) holds the tool_result for 'toolu_01XTbK9b3Attg9LFsW4L6Fr5', but the results for the tool calls of messages[1] started in messages[2]; put every tool_result of one assistant turn in a single user message",
            )
        ]
    )


def test_text_before_results() -> None:
    """A text block ahead of the tool_result blocks is reported."""
    messages = _messages()
    messages[2]["content"].insert(0, {"type": "text", "text": "here you go"})
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                2,
                "messages[2] (user) has a text block before the tool_result for 'toolu_01KWZYbjFVqYdpqBiJbw8zJB'; begin the message with all its tool_result blocks, one per tool_use id, and put text or other content after them",
            )
        ]
    )


def test_text_after_results_is_accepted() -> None:
    """Text after every tool_result block is fine."""
    messages = _messages()
    messages[2]["content"].append({"type": "text", "text": "anything else?"})
    assert anthropic_history_problems(messages) == []


def test_unknown_and_duplicate_results() -> None:
    """A result for an id the assistant did not use, and a second result, are reported."""
    messages = _messages()
    results = messages[2]["content"]
    results[1] = {**results[1], "tool_use_id": "toolu_nope"}
    results.append(dict(results[0]))
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01XTbK9b3Attg9LFsW4L6Fr5' (get_area) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            ),
            (
                2,
                "messages[2] (user) has a tool_result for 'toolu_nope', but messages[1] (assistant) has no tool_use with that id (its tool_use ids: 'toolu_01KWZYbjFVqYdpqBiJbw8zJB', 'toolu_01XTbK9b3Attg9LFsW4L6Fr5'); use the id of one of its tool_use blocks",
            ),
            (
                2,
                "messages[2] (user) has a second tool_result for 'toolu_01KWZYbjFVqYdpqBiJbw8zJB'; give exactly one tool_result per tool_use id",
            ),
        ]
    )


def test_plain_text_reply_to_tool_use() -> None:
    """A string-content user message after tool_use answers nothing."""
    messages = _messages()
    messages[2] = {"role": "user", "content": "what now?"}
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01KWZYbjFVqYdpqBiJbw8zJB' (get_population) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            ),
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01XTbK9b3Attg9LFsW4L6Fr5' (get_area) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            ),
        ]
    )


def test_results_after_an_unrelated_turn() -> None:
    """Results sent a turn too late are orphans, and the calls stay unanswered."""
    messages = _messages()
    results = messages[2]
    messages[2] = {"role": "user", "content": "hold on"}
    messages += [{"role": "assistant", "content": [{"type": "text", "text": "ok"}]}, results]
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01KWZYbjFVqYdpqBiJbw8zJB' (get_population) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            ),
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01XTbK9b3Attg9LFsW4L6Fr5' (get_area) with no tool_result in the next message, messages[2]; begin that message with one tool_result block per tool_use id",
            ),
            (
                4,
                "messages[4] (user) has a tool_result for 'toolu_01KWZYbjFVqYdpqBiJbw8zJB', but the message before it is not an assistant message with tool_use blocks; a tool_result must answer a tool_use of the assistant message right before it ('toolu_01KWZYbjFVqYdpqBiJbw8zJB' is a tool_use of messages[1]; its result belongs in the message right after that one)",
            ),
            (
                4,
                "messages[4] (user) has a tool_result for 'toolu_01XTbK9b3Attg9LFsW4L6Fr5', but the message before it is not an assistant message with tool_use blocks; a tool_result must answer a tool_use of the assistant message right before it ('toolu_01XTbK9b3Attg9LFsW4L6Fr5' is a tool_use of messages[1]; its result belongs in the message right after that one)",
            ),
        ]
    )


def test_history_ending_with_tool_use() -> None:
    """A history cut right after the tool_use blocks reports each one."""
    assert _pairs(anthropic_history_problems(_messages()[:2])) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01KWZYbjFVqYdpqBiJbw8zJB' (get_population) with no user message after it; append one user message that begins with a tool_result block for each tool_use id",
            ),
            (
                1,
                "messages[1] (assistant) has tool_use 'toolu_01XTbK9b3Attg9LFsW4L6Fr5' (get_area) with no user message after it; append one user message that begins with a tool_result block for each tool_use id",
            ),
        ]
    )


def test_consecutive_assistant_messages_form_one_turn() -> None:
    """The API combines consecutive assistant messages, so their tool_use blocks share one answer."""
    messages = _messages()
    uses = messages[1]["content"]
    messages[1:2] = [
        {"role": "assistant", "content": [uses[0]]},
        {"role": "assistant", "content": [uses[1]]},
    ]
    assert anthropic_history_problems(messages) == []


def test_system_messages_are_skipped() -> None:
    """A role='system' message (tool additions) does not break the pairing."""
    messages = _messages()
    messages.insert(2, {"role": "system", "content": [{"type": "tool_addition"}]})
    assert anthropic_history_problems(messages) == []


def test_missing_ids() -> None:
    """A tool_use without id and a tool_result without tool_use_id are reported."""
    messages = _messages()
    del messages[1]["content"][1]["id"]
    messages[2]["content"][1]["tool_use_id"] = None
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                1,
                "messages[1] (assistant) has a tool_use block (get_area) with no id; replay tool_use blocks exactly as the API returned them",
            ),
            (
                2,
                "messages[2] (user) has a tool_result block with no tool_use_id; set it to the id of the tool_use it answers",
            ),
        ]
    )


def test_whitespace_text_only() -> None:
    """A message whose only content is whitespace text is reported (the live API refuses it
    with "text content blocks must contain non-whitespace text"), for blocks and for a user
    string; whitespace beside results or tool_use blocks is accepted."""
    messages = _messages()
    messages[1]["content"].insert(0, {"type": "text", "text": "\n\n"})
    messages[2]["content"].append({"type": "text", "text": " "})
    assert anthropic_history_problems(messages) == []
    messages += [
        {"role": "assistant", "content": [{"type": "text", "text": "\n\n"}]},
        {"role": "user", "content": " \n"},
    ]
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                3,
                'messages[3] (assistant) holds only whitespace text, and the API rejects that ("text content blocks must contain non-whitespace text"); drop the blank text, and the message if nothing is left (assistant_messages leaves out a turn of blank text)',
            ),
            (
                4,
                'messages[4] (user) holds only whitespace text, and the API rejects that ("text content blocks must contain non-whitespace text"); drop the blank text, and the message if nothing is left (assistant_messages leaves out a turn of blank text)',
            ),
        ]
    )


def test_user_message_without_content() -> None:
    """A user message with `""` or `[]` content is reported ("user messages must have
    non-empty content"); an empty assistant message is accepted."""
    messages = _messages()
    messages += [
        {"role": "assistant", "content": []},
        {"role": "user", "content": ""},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": []},
    ]
    assert _pairs(anthropic_history_problems(messages)) == snapshot(
        [
            (
                4,
                'messages[4] (user) has no content, and the API rejects it ("user messages must have non-empty content"); give it text, or leave the message out',
            ),
            (
                6,
                'messages[6] (user) has no content, and the API rejects it ("user messages must have non-empty content"); give it text, or leave the message out',
            ),
        ]
    )
