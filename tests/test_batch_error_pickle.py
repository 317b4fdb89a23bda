"""`ToolBatchError` survives pickle and copy with its calls, results and errors, so process
pools and error reporters can carry it; `except*`, split and subgroup keep working."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import pytest

from toolwire.core import BaseFunctionToolModel, StandardToolCall, ToolGroup
from toolwire.exceptions import ToolBatchError


class Lookup(BaseFunctionToolModel[None, None]):
    """Look a key up; "boom" crashes the handler."""

    key: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.key == "boom":
            raise KeyError(self.key)
        return f"value of {self.key}", None


CALLS = [
    StandardToolCall("function", "c1", "Lookup", '{"key": "a"}'),
    StandardToolCall("function", "c2", "Lookup", '{"key": 1}'),
    StandardToolCall("function", "c3", "Lookup", '{"key": "boom"}'),
    StandardToolCall("function", "c4", "Lookup", '{"key": "b"}'),
]


def batch_error() -> ToolBatchError:
    group = ToolGroup.from_list([Lookup])
    with pytest.raises(ToolBatchError) as raised:
        group.run_tool_calls(CALLS, None)
    error = raised.value
    error.add_note("seen in a test")
    return error


def summary(error: ToolBatchError) -> object:
    """Everything a reporter or a process pool's caller reads from the error."""
    return (
        type(error),
        error.message,
        [repr(e) for e in error.exceptions],
        error.calls,
        [(r.call_id, r.fail_reason, r.result_content) if r else None for r in error.results],
        [repr(e) for e in error.errors],
        [(r.call_id, r.fail_reason) for r in error.answer_all()],
        getattr(error, "__notes__", None),
    )


def pickled(error: object) -> object:
    return pickle.loads(pickle.dumps(error))


def raise_in_child() -> None:
    batch_error()
    group = ToolGroup.from_list([Lookup])
    group.run_tool_calls(CALLS, None)


@pytest.mark.parametrize(
    "duplicate",
    [pickled, copy.copy, copy.deepcopy],
    ids=["pickle", "copy", "deepcopy"],
)
def test_pickle_and_copy_keep_everything(duplicate: Callable[[object], object]) -> None:
    error = batch_error()
    again = duplicate(error)
    assert isinstance(again, ToolBatchError)
    assert summary(again) == summary(error)
    assert [(r.call_id, r.fail_reason) for r in again.answer_all()] == [
        ("c1", None),
        ("c2", "invalid_arguments"),
        ("c3", "unexpected_error"),
        ("c4", "not_run"),
    ]


def test_a_process_pool_carries_it_back() -> None:
    """The child's ToolBatchError reaches the parent whole (it is pickled on the way)."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        error = pool.submit(raise_in_child).exception(timeout=60)
    assert isinstance(error, ToolBatchError)
    assert [c.id for c in error.not_run] == ["c4"]
    assert isinstance(error.exceptions[0], KeyError)


def test_except_star_split_and_subgroup_keep_the_batch() -> None:
    error = batch_error()
    keys, rest = error.split(KeyError)
    assert isinstance(keys, ToolBatchError) and rest is None
    assert keys.calls == error.calls and keys.results == error.results
    assert error.subgroup(ValueError) is None
    try:
        raise error
    except* KeyError as group:
        assert isinstance(group, ToolBatchError)
        assert [r is None for r in group.results] == [False, False, True, True]
