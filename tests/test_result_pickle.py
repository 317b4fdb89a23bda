"""Results survive pickle (every protocol), `copy.copy` and `copy.deepcopy` whole: their
fields and what they record beside them (`edit`, `cut`, `guardrail`, `repairs`,
`retries_exhausted`, a refusal's origin), so a worker process or a loop resumed in
another process reads the same result. `repr` and `==` show the fields only.
`dataclasses.replace` (and `copy.replace` on 3.13) keeps the records that still hold for
the copy."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
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


def everything(result: ToolCallResult[Any]) -> tuple[object, ...]:
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


KINDS = ["repaired", "exhausted", "cut", "guarded", "edited", "refused"]
REPLACES: list[Callable[..., Any]] = [dataclasses.replace]
if sys.version_info >= (3, 13):
    REPLACES.append(copy.replace)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]


@pytest.mark.parametrize("replace", REPLACES, ids=lambda f: f"{f.__module__}.replace")
def test_replace_keeps_the_records_that_still_hold(replace: Callable[..., Any]) -> None:
    """The records of what happened to the call (edit, guardrail, repairs, retry budget,
    a refusal's origin) stay while the copy answers the same call id; `cut` (the full
    content a budget cut) stays while the content is the same."""
    made = results()
    assert [r.call_id for r in made] == KINDS

    def after(**changes: Any) -> list[object]:
        return [everything(replace(r, **changes))[1:] for r in made]

    records = [everything(r)[1:] for r in made]
    assert after() == records
    assert after(context=None, synthesized_id=True) == records
    cut_dropped = [(e, None, *rest) for e, _, *rest in records]
    assert after(result_content="[redacted]") == cut_dropped
    assert [everything(replace(r, result_parts=()))[1:] for r in made[:2]] == records[:2]
    no_call_records = [(None, cut, None, (), False, None) for _, cut, *_ in records]
    assert after(call_id="another") == no_call_records
    assert made[2].cut is not None and replace(made[2], name="Report").cut is made[2].cut


def test_a_replaced_refusal_still_answers_its_place() -> None:
    """`run_pending` tells a refusal from another answer to the same id by the place
    it was made for: a copy with new text keeps that place."""
    first, second = GROUP.prepare_tool_calls(
        [call("same", '{"numbers": [1]}'), call("same", '{"numbers": [2]}')]
    )
    refusal = dataclasses.replace(first.refuse("No."), result_content="Not now.")
    results = GROUP.run_pending([refusal, second], None)
    assert [(r.call_id, r.result_content) for r in results] == [
        ("same", "Not now."),
        ("same", "secret 2"),
    ]
