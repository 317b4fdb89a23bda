"""The retry budget across turns (`retries=RetryBudget()`): per tool, failed calls in a
row; past the tool's budget the failure tells the model to stop, the result and the
budget say so, a success starts the count again, and the budget is JSON data."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inline_snapshot import snapshot

from tests.helpers import chat_completion
from tests.strength import scaled
from toolwire.aio import BaseFunctionToolModel as AioTool
from toolwire.aio import ToolGroup as AioGroup
from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    ReplaceContent,
    RetryBudget,
    ToolBatchError,
    ToolCallEnd,
    ToolGroup,
    ToolHooks,
)
from toolwire.exceptions import ToolDefinitionError


class Lookup(BaseFunctionToolModel[None, None]):
    """Look a key up."""

    key: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.key == "missing":
            raise ErrorForLLMToSee(f"No entry {self.key!r}.")
        if self.key == "crash":
            raise RuntimeError("bug")
        return f"value of {self.key}", None


class Fragile(BaseFunctionToolModel[None, None]):
    """A tool that may be retried once."""

    model_tool_max_retries = 1
    n: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


GROUP = ToolGroup.from_list([Lookup, Fragile])


def turn(budget: RetryBudget | None, *calls: tuple[str, str] | tuple[str, str, str]) -> list[Any]:
    """One model turn of `calls` (name, arguments), run with `budget`."""
    return GROUP.run_tool_calls(chat_completion(*calls), None, retries=budget)


def test_failures_in_a_row_spend_the_budget_across_turns() -> None:
    budget = RetryBudget(max_retries=2)
    seen: list[tuple[str, bool, int, bool]] = []
    result: Any = None
    for _ in range(4):
        [result] = turn(budget, ("Lookup", '{"key": "missing"}'))
        seen.append(
            (
                result.fail_reason,
                result.retries_exhausted,
                budget.failures("Lookup"),
                budget.exhausted(),
            )
        )
    assert seen == [
        ("explicit_handler_error", False, 1, False),
        ("explicit_handler_error", False, 2, False),
        ("explicit_handler_error", True, 3, True),
        ("explicit_handler_error", True, 4, True),
    ]
    assert result.result_content == snapshot(
        "No entry 'missing'.\n\n'Lookup' has failed 4 times in a row, more than it may be retried: stop calling it. Tell the user what went wrong, or go on without it."
    )
    assert budget.exhausted(Lookup) and budget.exhausted_tools == ["Lookup"]
    [ok] = turn(budget, ("Lookup", '{"key": "a"}'))  # a success starts the count again
    assert (ok.fail_reason, budget.failures(Lookup), budget.exhausted()) == (None, 0, False)


def test_the_tools_own_budget_wins_and_each_tool_counts_apart() -> None:
    budget = RetryBudget(max_retries=5)
    first = turn(budget, ("Fragile", "{}"), ("Lookup", "{}"))
    second = turn(budget, ("Fragile", '{"n": "x"}'), ("Lookup", "{}"))
    assert [r.retries_exhausted for r in first + second] == [False, False, True, False]
    assert budget.to_dict() == {
        "format": "toolwire.retries/1",
        "max_retries": 5,
        "failures": {"Fragile": 2, "Lookup": 2},
        "exhausted": ["Fragile"],
    }


def test_within_one_turn_calls_count_in_call_order() -> None:
    budget = RetryBudget(max_retries=0)
    results = turn(
        budget,
        ("Lookup", '{"key": "missing"}', "a"),
        ("Lookup", '{"key": "b"}', "b"),
        ("Lookup", '{"key": "missing"}', "c"),
    )
    assert [r.retries_exhausted for r in results] == [True, False, True]


def test_what_the_model_cannot_fix_by_retrying_is_not_counted() -> None:
    budget = RetryBudget(max_retries=0)
    turn(budget, ("NoSuchTool", "{}"))
    results = GROUP.run_tool_calls(
        chat_completion(("Lookup", '{"key": "crash"}')),
        None,
        retries=budget,
        unexpected_errors="fail",
    )
    pending = GROUP.prepare_tool_calls(chat_completion(("Lookup", '{"key": "missing"}')))
    refused = GROUP.run_pending([pending[0].refuse()], None, retries=budget)
    assert [r.fail_reason for r in results + refused] == ["unexpected_error", "refused"]
    assert budget.to_dict()["failures"] == {}


def test_a_spent_budget_keeps_what_the_result_records_of_its_call() -> None:
    """The stop note is added to what the model reads; the guardrail's record stays."""

    def redact(end: ToolCallEnd) -> ReplaceContent:
        assert end.result is not None
        return ReplaceContent(end.result.result_content.replace("missing", "[redacted]"))

    [result] = GROUP.run_tool_calls(
        chat_completion(("Lookup", '{"key": "missing"}')),
        None,
        retries=RetryBudget(max_retries=0),
        hooks=ToolHooks(after=redact),
    )
    assert result.guardrail is not None and result.guardrail.original is not None
    assert (
        result.result_content,
        result.retries_exhausted,
        result.guardrail.action,
        result.guardrail.original.result_content,
    ) == snapshot(
        (
            """\
No entry '[redacted]'.

'Lookup' has failed 1 times in a row, more than it may be retried: stop calling it. Tell the user what went wrong, or go on without it.\
""",
            True,
            "replaced",
            "No entry 'missing'.",
        )
    )


def test_the_budget_is_json_data() -> None:
    budget = RetryBudget(max_retries=1)
    turn(budget, ("Lookup", "{}"))
    turn(budget, ("Lookup", "{}"))
    stored = json.loads(json.dumps(budget.to_dict()))
    restored = RetryBudget.from_dict(stored)
    assert restored == budget and restored.exhausted("Lookup")
    [again] = turn(restored, ("Lookup", "{}"))
    assert again.retries_exhausted and restored.failures("Lookup") == 3
    for broken in ({}, {**stored, "failures": {"Lookup": 0}}, {**stored, "exhausted": ["Other"]}):
        with pytest.raises(ValueError, match="to_dict"):
            RetryBudget.from_dict(broken)


def test_reset() -> None:
    budget = RetryBudget(max_retries=0)
    turn(budget, ("Lookup", "{}"), ("Fragile", "{}"), ("Fragile", "{}"))  # Fragile's own: 1
    budget.reset(Lookup)
    assert budget.exhausted_tools == ["Fragile"]
    budget.reset()
    assert not budget.exhausted()


def test_developer_mistakes_fail_early() -> None:
    with pytest.raises(ToolDefinitionError, match="model_tool_max_retries is -1"):

        class Wrong(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            model_tool_max_retries = -1

    with pytest.raises(TypeError, match="an int >= 0"):
        RetryBudget(max_retries=True)
    with pytest.raises(TypeError, match="retries takes a RetryBudget"):
        GROUP.run_tool_calls([], None, retries=3)  # pyright: ignore[reportArgumentType]


def test_a_batch_error_carries_the_counted_results() -> None:
    budget = RetryBudget(max_retries=0)
    with pytest.raises(ToolBatchError) as raised:
        turn(budget, ("Lookup", "{}"), ("Lookup", '{"key": "crash"}'))
    assert [r.retries_exhausted if r else None for r in raised.value.results] == [True, None]
    assert raised.value.answer_all()[0].retries_exhausted


def test_approval_and_pending_runs_count_too() -> None:
    budget = RetryBudget(max_retries=0)
    results = GROUP.run_with_approval(
        chat_completion(("Lookup", "{}")), None, lambda pending: True, retries=budget
    )
    assert results[0].retries_exhausted and budget.exhausted("Lookup")


class Slow(AioTool[None, None]):
    """Takes its time."""

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        await asyncio.sleep(10)
        return "late", None


def test_aio_batches_count_timeouts() -> None:
    group = AioGroup.from_list([Slow])
    budget = RetryBudget(max_retries=0)
    [result] = asyncio.run(
        group.run_tool_calls(chat_completion(("Slow", "{}")), None, timeout=0, retries=budget)
    )
    assert (result.fail_reason, result.retries_exhausted) == ("timeout", True)


@settings(max_examples=scaled(200), deadline=None)
@given(outcomes=st.lists(st.booleans(), max_size=8), limit=st.integers(0, 3))
def test_the_count_is_the_last_run_of_failures(outcomes: list[bool], limit: int) -> None:
    budget = RetryBudget(max_retries=limit)
    flags: list[bool] = []
    for ok in outcomes:
        [result] = turn(budget, ("Lookup", '{"key": "a"}' if ok else "{}"))
        flags.append(result.retries_exhausted)
    trailing = len(outcomes) - 1 - max((i for i, ok in enumerate(outcomes) if ok), default=-1)
    assert budget.failures("Lookup") == trailing
    assert budget.exhausted("Lookup") == (trailing > limit)
    run = 0
    for ok, flag in zip(outcomes, flags, strict=True):
        run = 0 if ok else run + 1
        assert flag == (run > limit)
