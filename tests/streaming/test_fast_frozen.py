"""Stream events built on the hot path (plain assignment, then their public class) are
the same frozen dataclasses as events built by their own `__init__`."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from toolwire._streaming._events import NewArgumentsDelta, NewReasoningDelta, NewTextDelta
from toolwire._streaming._preview import ArgumentsPreview
from toolwire.core import ReasoningDelta, StringDelta, TextDelta, ToolCallArgumentsDelta

PREVIEW = ArgumentsPreview()
PAIRS: list[tuple[Any, Any]] = [
    (NewTextDelta("hi"), TextDelta("hi")),
    (NewReasoningDelta("hmm"), ReasoningDelta("hmm")),
    (
        NewArgumentsDelta(0, 1, "call_1", "write", '"abc', ("a",), "abc", PREVIEW),
        ToolCallArgumentsDelta(
            0, 1, "call_1", "write", '"abc', StringDelta(("a",), "abc"), PREVIEW
        ),
    ),
    (
        NewArgumentsDelta(0, 1, "call_1", "write", "{", None, None, PREVIEW),
        ToolCallArgumentsDelta(0, 1, "call_1", "write", "{", None, PREVIEW),
    ),
]


@pytest.mark.parametrize(("fast", "plain"), PAIRS, ids=lambda e: type(e).__name__)
def test_a_fast_built_event_is_the_plain_one(fast: Any, plain: Any) -> None:
    assert type(fast) is type(plain)
    assert (fast, hash(fast), repr(fast)) == (plain, hash(plain), repr(plain))
    public = [f.name for f in dataclasses.fields(plain) if not f.name.startswith("_")]
    public += [name for name in ("string_delta",) if hasattr(plain, name)]
    assert [getattr(fast, name) for name in public] == [getattr(plain, name) for name in public]
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert copy.copy(fast) == plain
    field = dataclasses.fields(fast)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fast, field, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(fast, field)


def test_an_arguments_delta_builds_its_string_delta_when_read() -> None:
    """One object is made per fragment; `string_delta` reads, prints and matches as the
    field it was before."""
    event = NewArgumentsDelta(0, 1, "call_1", "write", 'x\\n"', ("a", 2), "x\n", PREVIEW)
    assert event.string_delta == StringDelta(("a", 2), "x\n")
    assert repr(event) == (
        "ToolCallArgumentsDelta(index=0, provider_index=1, call_id='call_1', name='write', "
        "fragment='x\\\\n\"', string_delta=StringDelta(path=('a', 2), text='x\\n'))"
    )
    match event:
        case ToolCallArgumentsDelta(0, 1, "call_1", "write", _, StringDelta(("a", 2), text)):
            assert text == "x\n"
        case _:
            pytest.fail(f"{event!r} did not match its own fields")
    assert NewArgumentsDelta(0, 1, "call_1", "write", "{", None, None, PREVIEW).string_delta is None
