"""Stream events built on the hot path (plain assignment, then their public class) are
the same frozen dataclasses as events built by their own `__init__`."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from toolwire._streaming._events import NewReasoningDelta, NewTextDelta, new_arguments_delta
from toolwire._streaming._preview import ArgumentsPreview
from toolwire.core import ReasoningDelta, StringDelta, TextDelta, ToolCallArgumentsDelta

PREVIEW = ArgumentsPreview()
OPEN, VALUE, ESCAPED = (PREVIEW.add(part) for part in ('{"a": [1, "', "abc", 'x\\n"'))
PAIRS: list[tuple[Any, Any]] = [
    (NewTextDelta("hi"), TextDelta("hi")),
    (NewReasoningDelta("hmm"), ReasoningDelta("hmm")),
    (
        new_arguments_delta(0, 1, "call_1", "write", "abc", PREVIEW, VALUE),
        ToolCallArgumentsDelta(0, 1, "call_1", "write", "abc", PREVIEW, VALUE),
    ),
    (
        new_arguments_delta(0, 1, "call_1", "write", '{"a": [1, "', PREVIEW, OPEN),
        ToolCallArgumentsDelta(0, 1, "call_1", "write", '{"a": [1, "', PREVIEW, OPEN),
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
    assert dataclasses.replace(fast) == plain  # what `_fast_frozen` promises
    field = dataclasses.fields(fast)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fast, field, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(fast, field)


def test_an_arguments_delta_builds_its_string_delta_when_read() -> None:
    """One object is made per fragment; `string_delta` reads, prints and matches as the
    field it was before."""
    event = new_arguments_delta(0, 1, "call_1", "write", 'x\\n"', PREVIEW, ESCAPED)
    assert event.string_delta == StringDelta(("a", 1), "x\n")
    assert repr(event) == (
        "ToolCallArgumentsDelta(index=0, provider_index=1, call_id='call_1', name='write', "
        "fragment='x\\\\n\"', string_delta=StringDelta(path=('a', 1), text='x\\n'))"
    )
    match event:
        case ToolCallArgumentsDelta(0, 1, "call_1", "write", _, StringDelta(("a", 1), text)):
            assert text == "x\n"
        case _:
            pytest.fail(f"{event!r} did not match its own fields")
    opening = new_arguments_delta(0, 1, "call_1", "write", '{"a": [1, "', PREVIEW, OPEN)
    assert opening.string_delta is None


def test_dataclasses_replace_keeps_an_arguments_delta_s_place() -> None:
    """A copy with a field changed is the same fragment at the same place in the call's
    arguments: its string delta does not change."""
    event = new_arguments_delta(0, 1, "call_1", "write", 'x\\n"', PREVIEW, ESCAPED)
    renamed = dataclasses.replace(event, call_id="call_9", name="save")
    assert renamed == ToolCallArgumentsDelta(0, 1, "call_9", "save", 'x\\n"', PREVIEW, ESCAPED)
    assert renamed.string_delta == StringDelta(("a", 1), "x\n")


def test_arguments_deltas_compare_by_their_string_delta() -> None:
    """Two events of the same fragment text at different places differ when their string
    deltas do (equality and hashing use the public values, `string_delta` included)."""
    preview = ArgumentsPreview()
    key, value = preview.add('{"ab'), preview.add("ab")
    preview.add('": "')
    again = preview.add("ab")
    first = ToolCallArgumentsDelta(0, 0, "c", "n", "ab", preview, value)
    second = ToolCallArgumentsDelta(0, 0, "c", "n", "ab", preview, again)
    assert (first.string_delta, second.string_delta) == (None, StringDelta(("abab",), "ab"))
    assert first != second
    assert first == ToolCallArgumentsDelta(0, 0, "c", "n", "ab", preview, key + 1)
    assert len({first, second, ToolCallArgumentsDelta(0, 0, "c", "n", "ab", preview, value)}) == 2
