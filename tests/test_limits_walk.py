"""The size and depth check of dict arguments (Anthropic, Gemini) refuses exactly the
arguments that break a limit, and says which: checked against the limits' definitions
(size: keys, string values and one per value, plus two; depth: the arguments object is
1), on nested dicts, lists, tuples, other mappings and non-string keys."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strength import scaled
from toolwire._limits import ArgumentLimits, check_dict

_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12)
)
_KEYS = st.one_of(st.text(max_size=6), st.integers(0, 99))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEYS, inner, max_size=4),
        st.dictionaries(st.text(max_size=5), inner, max_size=3).map(types.MappingProxyType),
    ),
    max_leaves=40,
)
_ARGUMENTS = st.one_of(
    st.dictionaries(_KEYS, _VALUES, max_size=6),
    st.dictionaries(st.text(max_size=5), _VALUES, max_size=4).map(types.MappingProxyType),
)


def _size_and_depth(value: object, depth: int = 1) -> tuple[int, int]:
    """(size without the outer 2, deepest container) by the limits' definitions."""
    if isinstance(value, Mapping):
        mapping = cast("Mapping[Any, Any]", value)
        children: list[Any] = list(mapping.values())
        size = sum(len(k) if type(k) is str else 8 for k in mapping)
    elif isinstance(value, list | tuple):
        children, size = list(cast("list[Any]", value)), 0
    else:
        return (len(value) if type(value) is str else 0), 0
    deepest = depth
    for child in children:
        child_size, child_depth = _size_and_depth(child, depth + 1)
        size += child_size + 1
        deepest = max(deepest, child_depth)
    return size, deepest


@settings(max_examples=scaled(400), deadline=None)
@given(_ARGUMENTS, st.integers(1, 6), st.integers(2, 150))
def test_refuses_exactly_what_breaks_a_limit(data: Any, max_depth: int, max_chars: int) -> None:
    limits = ArgumentLimits(max_chars=max_chars, max_depth=max_depth)
    size, depth = _size_and_depth(data)
    problem = check_dict(data, limits)
    if size + 2 <= max_chars and depth <= max_depth:
        assert problem is None
    elif problem is not None and "deeper" in problem:
        assert depth > max_depth
    else:
        assert problem is not None and "larger" in problem and size + 2 > max_chars


def test_a_deep_value_below_a_flat_top_level_is_refused() -> None:
    """The top level is read in its own loop; what it finds nested is still walked."""
    deep: Any = "x"
    for _ in range(70):
        deep = [deep]
    problem = check_dict({"city": "Paris", "days": 3, "notes": deep}, ArgumentLimits())
    assert problem == "the arguments are nested deeper than the limit of 64 levels"
    big = {"city": "Paris", "customer": {"address": {"street": "x" * 100}}}
    problem = check_dict(big, ArgumentLimits(max_chars=100))
    assert problem == "the arguments are larger than the limit of 100 characters"
