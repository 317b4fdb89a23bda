"""Responses API history rules, on recorded traffic and on broken variants of it."""

from __future__ import annotations

from typing import Any

from inline_snapshot import snapshot
from openai.types.responses import Response

from toolwire.testing._openai_responses.history import responses_history_problems
from toolwire.testing._rules import HistoryProblem

from ._corpus import accepted_followups, corpus_case, corpus_cases

CHAIN = "test_tool_search__test_openai_native_tool_search_with_deferred_capability__i2"
"""message, reasoning, server tool search, then three function_call/output pairs at 4-5, 6-7, 9-10."""


def _pairs(problems: list[HistoryProblem]) -> list[tuple[int, str]]:
    return [(p.index, p.message) for p in problems]


def _items() -> list[dict[str, Any]]:
    return corpus_case(CHAIN)["followup_request"]["input"]


def _replays_items(body: dict[str, Any]) -> bool:
    return not (body.get("previous_response_id") or body.get("conversation"))


def test_every_accepted_followup_has_no_problems() -> None:
    """Every follow-up the live API accepted that re-sends its items passes the rules."""
    followups = [(i, b) for i, b in accepted_followups("openai-responses") if _replays_items(b)]
    found = {
        case_id: _pairs(responses_history_problems(body["input"])) for case_id, body in followups
    }
    assert {k: v for k, v in found.items() if v} == {}
    assert len(followups) == snapshot(40)


def test_every_recorded_request_has_no_problems() -> None:
    """The requests that produced the recorded calls are valid inputs too."""
    cases = [
        c
        for c in corpus_cases()
        if c["api"] == "openai-responses"
        and _replays_items(c["request"])
        and isinstance(c["request"]["input"], list)
    ]
    found = {c["id"]: _pairs(responses_history_problems(c["request"]["input"])) for c in cases}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(cases) == snapshot(60)


def test_replayed_model_dump_items_are_accepted() -> None:
    """Output items replayed as `item.model_dump()` (None values, "async_") pass."""
    case = corpus_case(CHAIN)
    response = Response.construct(**case["response"])
    dumped = response.output[0].model_dump()
    assert "async_" in dumped
    items = _items()
    items[9] = dumped
    assert responses_history_problems(items) == []


def test_string_input_has_no_problems() -> None:
    """A plain string input holds no calls."""
    assert responses_history_problems("hello") == []  # pyright: ignore[reportArgumentType]


def test_dropped_output() -> None:
    """A function_call whose output was dropped is named with its call_id and tool."""
    items = _items()
    del items[10]
    assert _pairs(responses_history_problems(items)) == snapshot(
        [
            (
                9,
                "input[9] (function_call 'call_VbRPjteOXoB0jzgTbxPLQ4IQ', lookup_refund_policy) has no function_call_output with call_id 'call_VbRPjteOXoB0jzgTbxPLQ4IQ' after it; append one function_call_output item per call, carrying its call_id",
            )
        ]
    )


def test_output_before_its_call() -> None:
    """An output placed before its call is reported at both ends."""
    items = _items()
    items[9], items[10] = items[10], items[9]
    assert _pairs(responses_history_problems(items)) == snapshot(
        [
            (
                9,
                "input[9] (function_call_output) answers call_id 'call_VbRPjteOXoB0jzgTbxPLQ4IQ', whose call only comes later, at input[10]; put each output after its call",
            ),
            (
                10,
                "input[10] (function_call 'call_VbRPjteOXoB0jzgTbxPLQ4IQ', lookup_refund_policy) has no function_call_output with call_id 'call_VbRPjteOXoB0jzgTbxPLQ4IQ' after it; append one function_call_output item per call, carrying its call_id",
            ),
        ]
    )


def test_orphan_duplicate_and_wrong_kind() -> None:
    """An output for no call, a second output, and a custom output for a function call."""
    items = _items()
    items[5] = {**items[5], "call_id": "call_nope"}
    items[7] = {**items[7], "type": "custom_tool_call_output"}
    items.append(dict(items[10]))
    assert _pairs(responses_history_problems(items)) == snapshot(
        [
            (
                4,
                "input[4] (function_call 'call_sMWjxDWDKRwwMdW8RJAZ6y8F', get_weather) has no function_call_output with call_id 'call_sMWjxDWDKRwwMdW8RJAZ6y8F' after it; append one function_call_output item per call, carrying its call_id",
            ),
            (
                5,
                "input[5] (function_call_output) has call_id 'call_nope', but no function_call or custom_tool_call before it has that call_id; give each output the call_id of a call that comes before it in the input",
            ),
            (
                7,
                "input[7] (custom_tool_call_output) answers 'call_xQ3qiidxi1I3HOgmR9F02IRt', which is a function_call (input[6]); answer a function_call with a function_call_output and a custom_tool_call with a custom_tool_call_output",
            ),
            (
                11,
                "input[11] (function_call_output) answers call_id 'call_VbRPjteOXoB0jzgTbxPLQ4IQ' a second time (input[10] already did); send exactly one output per call",
            ),
        ]
    )


def test_missing_call_ids() -> None:
    """A call or an output without a call_id is reported."""
    items = _items()
    items[4] = {**items[4], "call_id": None}
    del items[5]["call_id"]
    assert _pairs(responses_history_problems(items)) == snapshot(
        [
            (
                4,
                "input[4] (function_call, get_weather) has no call_id; replay the item as the API returned it, call_id included",
            ),
            (
                5,
                "input[5] (function_call_output) has no call_id; set it to the call_id of the call it answers",
            ),
        ]
    )


def test_custom_tool_call_needs_custom_output() -> None:
    """A custom_tool_call is answered by a custom_tool_call_output with its call_id."""
    call = {"type": "custom_tool_call", "call_id": "c1", "name": "sql", "input": "select 1"}
    answer = {"type": "custom_tool_call_output", "call_id": "c1", "output": "1"}
    assert responses_history_problems([call, answer]) == []
    assert _pairs(responses_history_problems([call])) == snapshot(
        [
            (
                0,
                "input[0] (custom_tool_call 'c1', sql) has no custom_tool_call_output with call_id 'c1' after it; append one custom_tool_call_output item per call, carrying its call_id",
            )
        ]
    )


def test_item_reference_may_hold_the_call() -> None:
    """With an item_reference in the input, an output for an unseen call is not reported."""
    items: list[dict[str, Any]] = [
        {"type": "item_reference", "id": "fc_1"},
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
    ]
    assert responses_history_problems(items) == []
    assert [p.index for p in responses_history_problems(items[1:])] == [0]
