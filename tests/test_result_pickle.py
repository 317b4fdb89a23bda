"""Results survive pickle (every protocol), `copy.copy` and `copy.deepcopy` whole: their
fields and what they record beside them (`edit`, `cut`, `guardrail`, `repairs`,
`retries_exhausted`, a refusal's origin), so a worker process or a loop resumed in
another process reads the same result. `repr` and `==` show the fields only."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    RepairPolicy,
    ReplaceContent,
    ResultBudget,
    RetryBudget,
    StandardToolCall,
    ToolCallEnd,
    ToolCallResult,
    ToolCallSuccess,
    ToolGroup,
    ToolHooks,
)


class Report(BaseFunctionToolModel[None, int]):
    """Report on some numbers."""

    numbers: list[int]
    mode: str = "sum"

    def model_tool_handler(self, context: None) -> tuple[str, int]:
        if self.mode == "fail":
            raise ErrorForLLMToSee("No report in this mode.")
        if self.mode == "long":
            return "x" * 500, len(self.numbers)
        return f"secret {sum(self.numbers)}", sum(self.numbers)


GROUP = ToolGroup.from_list([Report], result_budget=ResultBudget(max_chars=100))


def hide_secrets(end: ToolCallEnd) -> ReplaceContent | None:
    result = end.result
    if result is not None and result.result_content.startswith("secret"):
        return ReplaceContent("[hidden]")
    return None


def call(call_id: str, arguments: str) -> StandardToolCall:
    return StandardToolCall("function", call_id, "Report", arguments)


def results() -> list[ToolCallResult[int]]:
    """A result of each kind that records something beside its fields."""
    ran = GROUP.run_tool_calls(
        [
            call("repaired", '{"numbers": "[1, 2]", "mode": "plain"}'),
            call("exhausted", '{"numbers": [], "mode": "fail"}'),
            call("cut", '{"numbers": [1], "mode": "long"}'),
            call("guarded", '{"numbers": [3]}'),
        ],
        None,
        repair=RepairPolicy(),
        retries=RetryBudget(max_retries=0),
        hooks=ToolHooks(after=hide_secrets),
    )
    edited, refused = GROUP.prepare_tool_calls(
        [call("edited", '{"numbers": [1]}'), call("refused", '{"numbers": [2]}')]
    )
    decided = GROUP.run_pending([edited.edit({"numbers": [5, 5]}), refused.refuse("No.")], None)
    return [*ran, *decided]


def everything(result: ToolCallResult[Any]) -> object:
    """All a result holds: its fields (repr) and each record kept beside them."""
    return (
        repr(result),
        result.edit,
        result.cut,
        result.guardrail,
        result.repairs,
        result.retries_exhausted,
        getattr(result, "_pending_origin", None),
    )


def pickled(protocol: int) -> Callable[[object], Any]:
    return lambda result: pickle.loads(pickle.dumps(result, protocol=protocol))


@pytest.mark.parametrize(
    "duplicate",
    [*(pickled(p) for p in range(pickle.HIGHEST_PROTOCOL + 1)), copy.copy, copy.deepcopy],
    ids=[*(f"pickle{p}" for p in range(pickle.HIGHEST_PROTOCOL + 1)), "copy", "deepcopy"],
)
def test_pickle_and_copy_keep_the_records_beside_the_fields(
    duplicate: Callable[[object], Any],
) -> None:
    made = results()
    assert [
        (
            r.call_id,
            bool(r.edit),
            bool(r.cut),
            bool(r.guardrail),
            len(r.repairs),
            r.retries_exhausted,
        )
        for r in made
    ] == [
        ("repaired", False, False, True, 1, False),
        ("exhausted", False, False, False, 0, True),
        ("cut", False, True, False, 0, False),
        ("guarded", False, False, True, 0, False),
        ("edited", True, False, False, 0, False),
        ("refused", False, False, False, 0, False),
    ]
    again = [duplicate(result) for result in made]
    assert [everything(r) for r in again] == [everything(r) for r in made]
    assert [type(r) for r in again] == [type(r) for r in made]


def test_repr_and_equality_show_the_fields_only() -> None:
    edited = results()[4]
    assert edited.fail_reason is None
    bare = ToolCallSuccess(edited.call_id, edited.name, edited.result_content, edited.context)
    assert bare == edited and repr(bare) == repr(edited)
    assert (bare.edit, edited.edit is not None) == (None, True)
