"""Lazy scanning: string deltas read late, out of order or after a preview scanned their
fragments together are exactly what scanning each fragment on arrival gave."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from itertools import cycle
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.shared_data import all_cases
from tests.streaming.test_preview import (
    CUTS,
    DOCUMENTS,
    FILE_DOCUMENTS,
    LAYOUTS,
    expected_preview,
    fragments,
)
from tests.strength import scaled
from toolwire._streaming._preview import ArgumentsPreview, StringDelta, max_lag
from toolwire._streaming._tracker import CallTracker
from toolwire.core import ToolCallArgumentsDelta


def _argument_texts(value: object) -> Iterator[str]:
    """Every tool call's arguments in a recorded case, as JSON text: Chat's and
    Responses' `arguments` strings, Anthropic's `input` and Gemini's `args` objects."""
    if isinstance(value, dict):
        node = cast("dict[str, object]", value)
        for key, child in node.items():
            if key == "arguments" and isinstance(child, str) and child.startswith("{"):
                yield child
            elif key in ("input", "args") and isinstance(child, dict) and child:
                yield json.dumps(cast("dict[str, Any]", child))
            elif isinstance(child, dict | list):
                yield from _argument_texts(cast("object", child))
    elif isinstance(value, list):
        for item in cast("list[object]", value):
            yield from _argument_texts(item)


@cache
def recorded_arguments() -> tuple[str, ...]:
    """The arguments of every tool call in the recorded traffic (empty without it)."""
    return tuple(sorted({text for case in all_cases() for text in _argument_texts(case)}))


def _texts() -> st.SearchStrategy[str]:
    generated = st.builds(
        lambda document, layout: json.dumps(document, **layout),  # pyright: ignore[reportUnknownArgumentType, reportUnknownLambdaType]
        DOCUMENTS | FILE_DOCUMENTS,
        LAYOUTS,
    )
    recorded = recorded_arguments()
    return generated | st.sampled_from(recorded) if recorded else generated


def eager_deltas(parts: list[str]) -> list[StringDelta | None]:
    """Each fragment's string delta, scanned as it arrives (a reader of every delta)."""
    preview = ArgumentsPreview()
    return [preview.feed(part) for part in parts]


@settings(max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=_texts(), cuts=CUTS, reads=st.lists(st.booleans(), min_size=1, max_size=10), data=st.data()
)
def test_late_and_out_of_order_deltas_equal_eager_ones(
    text: str, cuts: list[int], reads: list[bool], data: st.DataObject
) -> None:
    """Events whose previews were read (scanning fragments in batches) give, read later in
    any order, the string deltas each fragment gave when scanned on arrival; the previews
    stay within the lag bound and end exact."""
    parts = [part for part in fragments(text, cuts) if part]
    tracker = CallTracker()
    tracker.start("k", provider_index=0, call_id="call", name="tool")
    events: list[ToolCallArgumentsDelta] = []
    fed = 0
    for part, read in zip(parts, cycle(reads), strict=False):
        event = tracker.add("k", part)
        assert event is not None
        events.append(event)
        fed += len(part)
        if read:
            preview = event.partial_arguments
            lag = event._arguments.lag
            assert 0 <= lag <= max_lag(fed)
            assert preview == expected_preview(text[: fed - lag])
    order = data.draw(st.permutations(range(len(events))))
    late = {position: events[position].string_delta for position in order}
    assert [late[position] for position in range(len(events))] == eager_deltas(parts)
    if events:
        assert events[-1].partial_arguments == json.loads(text)


def test_recorded_arguments_are_found() -> None:
    """The recorded corpus feeds the property above (when it is present)."""
    if all_cases():
        assert len(recorded_arguments()) > 10
