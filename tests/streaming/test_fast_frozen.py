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
from toolwire._streaming._scanner import _NewStringDelta
from toolwire.core import ReasoningDelta, StringDelta, TextDelta, ToolCallArgumentsDelta

PREVIEW = ArgumentsPreview()
PAIRS: list[tuple[Any, Any]] = [
    (NewTextDelta("hi"), TextDelta("hi")),
    (NewReasoningDelta("hmm"), ReasoningDelta("hmm")),
    (_NewStringDelta(("content",), "abc"), StringDelta(("content",), "abc")),
    (
        NewArgumentsDelta(0, 1, "call_1", "write", '"abc', StringDelta(("a",), "abc"), PREVIEW),
        ToolCallArgumentsDelta(
            0, 1, "call_1", "write", '"abc', StringDelta(("a",), "abc"), PREVIEW
        ),
    ),
]


@pytest.mark.parametrize(("fast", "plain"), PAIRS, ids=lambda e: type(e).__name__)
def test_a_fast_built_event_is_the_plain_one(fast: Any, plain: Any) -> None:
    assert type(fast) is type(plain)
    assert (fast, hash(fast), repr(fast)) == (plain, hash(plain), repr(plain))
    public = [f.name for f in dataclasses.fields(plain) if not f.name.startswith("_")]
    assert [getattr(fast, name) for name in public] == [getattr(plain, name) for name in public]
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert copy.copy(fast) == plain
    field = dataclasses.fields(fast)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fast, field, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(fast, field)
