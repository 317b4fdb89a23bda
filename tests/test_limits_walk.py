"""The size and depth check of dict arguments (Anthropic, Gemini) refuses exactly the
arguments that break a limit, and says which: checked against the limits' definitions
(size: keys, string values and one per value, plus two; depth: the arguments object is
1), and against a plain walk in the documented order (the first limit broken, visiting
containers last-found-first, is the one reported), on nested dicts, lists, tuples, other
mappings, non-string keys, `str` subclasses, and the shapes the check sums in C: lists of
strings, long containers of scalars or of strings."""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strength import scaled
from toolwire._limits import ArgumentLimits, check_dict


class Colour(enum.StrEnum):
    """A `str` subclass, as a hand-built dict holds it: it counts its length."""

    RED = "red"
    TEAL = "teal-blue"


_NUMBERS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False))
_STRINGS = st.one_of(st.text(max_size=12), st.sampled_from(Colour))
_SCALARS = st.one_of(_NUMBERS, _STRINGS)
_KEYS = st.one_of(st.text(max_size=6), st.integers(0, 99))
_LONG = 16
"""Long enough for the check to classify a container by its set of value types."""


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEYS, inner, max_size=4),
        st.dictionaries(st.text(max_size=5), inner, max_size=3).map(types.MappingProxyType),
        # Lists of strings (summed in one C call), and lists that only start with one.
        st.lists(_STRINGS, min_size=1, max_size=5),
        st.lists(st.text(max_size=8), min_size=1, max_size=3).map(tuple),
        st.tuples(st.text(max_size=4), st.lists(inner, min_size=1, max_size=3)).map(
            lambda head_tail: [head_tail[0], *head_tail[1]]
        ),
        _LONG_CONTAINERS,
    )


_LONG_CONTAINERS = st.one_of(
    st.lists(_NUMBERS, min_size=_LONG, max_size=_LONG + 8),
    st.lists(st.text(max_size=3), min_size=_LONG, max_size=_LONG + 8),
    st.lists(_STRINGS, min_size=_LONG, max_size=_LONG + 8),
    st.lists(
        st.one_of(_NUMBERS, st.lists(_NUMBERS, max_size=2)), min_size=_LONG, max_size=_LONG + 8
    ),
    st.dictionaries(st.text(max_size=3), _NUMBERS, min_size=_LONG, max_size=_LONG + 8),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), min_size=_LONG, max_size=_LONG + 8),
)
"""Long containers: only numbers, only strings, or mixed with nested lists (drawn flat,
so nesting them stays quick)."""

_VALUES = st.recursive(_SCALARS, _containers, max_leaves=40)
_ARGUMENTS = st.one_of(
    st.dictionaries(_KEYS, _VALUES, max_size=6),
    st.dictionaries(st.text(max_size=5), _VALUES, max_size=4).map(types.MappingProxyType),
)


def _is_container(value: object) -> bool:
    """Dicts, lists, tuples and other mappings nest; anything else is one value."""
    return type(value) in (dict, list, tuple) or isinstance(value, Mapping)


def _own_size(value: object) -> int:
    """What a value adds to the size by itself: one, plus its length if it is a string."""
    return 1 + (len(value) if isinstance(value, str) else 0)


def _size_and_depth(value: object, depth: int = 1) -> tuple[int, int]:
    """(size without the outer 2, deepest container) by the limits' definitions."""
    if not _is_container(value):
        return _own_size(value) - 1, 0
    children, size = _children_and_key_size(value)
    deepest = depth
    for child in children:
        child_size, child_depth = _size_and_depth(child, depth + 1)
        size += child_size + 1
        deepest = max(deepest, child_depth)
    return size, deepest


def _children_and_key_size(container: object) -> tuple[list[Any], int]:
    if isinstance(container, Mapping):
        mapping = cast("Mapping[Any, Any]", container)
        return list(mapping.values()), sum(len(k) if type(k) is str else 8 for k in mapping)
    return list(cast("list[Any]", container)), 0


def _first_problem(data: object, limits: ArgumentLimits) -> str | None:
    """The documented order, walked plainly: containers from a stack, last found first;
    the depth compared as each is taken, the size after each is counted."""
    size, stack = 2, [(data, 1)]
    while stack:
        container, depth = stack.pop()
        if depth > limits.max_depth:
            return f"the arguments are nested deeper than the limit of {limits.max_depth} levels"
        children, key_size = _children_and_key_size(container)
        size += key_size + sum(_own_size(child) for child in children)
        stack.extend((child, depth + 1) for child in children if _is_container(child))
        if size > limits.max_chars:
            return f"the arguments are larger than the limit of {limits.max_chars:,} characters"
    return None


_AT_LIMIT = st.sampled_from((0, -1))
"""A limit set to the arguments' own size or depth (0), or one below it (-1)."""


@settings(max_examples=scaled(400), deadline=None)
@given(
    _ARGUMENTS,
    st.one_of(st.integers(1, 6).map(str), _AT_LIMIT),
    st.one_of(st.integers(2, 150).map(str), _AT_LIMIT),
)
def test_refuses_exactly_what_breaks_a_limit(
    data: Any, depth_limit: str | int, chars_limit: str | int
) -> None:
    """Each limit is drawn (a string) or set at the arguments' own measure, or one below."""
    size, depth = _size_and_depth(data)
    max_depth = int(depth_limit) if isinstance(depth_limit, str) else depth + depth_limit
    max_chars = int(chars_limit) if isinstance(chars_limit, str) else size + 2 + chars_limit
    limits = ArgumentLimits(max_chars=max(2, max_chars), max_depth=min(200, max(1, max_depth)))
    problem = check_dict(data, limits)
    if size + 2 <= limits.max_chars and depth <= limits.max_depth:
        assert problem is None
    elif problem is not None and "deeper" in problem:
        assert depth > limits.max_depth
    else:
        assert problem is not None and "larger" in problem and size + 2 > limits.max_chars
    assert problem == _first_problem(data, limits)


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


def test_a_str_subclass_counts_its_length_at_every_level() -> None:
    """One rule wherever the value is (the arguments object, a nested object, a list of
    strings, a long list): a `StrEnum` member counts like the string it is."""
    tags = ["a", Colour.TEAL]
    long = [Colour.RED] * 16
    cases: list[tuple[dict[str, Any], int]] = [
        ({"c": Colour.TEAL}, 2 + 1 + 1 + 9),
        ({"c": {"d": Colour.TEAL}}, 2 + 1 + 1 + 1 + 1 + 9),
        ({"t": tags}, 2 + 1 + 1 + 2 + 1 + 9),
        ({"t": [Colour.TEAL, "a"]}, 2 + 1 + 1 + 2 + 9 + 1),
        ({"t": long}, 2 + 1 + 1 + 16 * 4),
        ({"t": ["x"] * 16}, 2 + 1 + 1 + 16 * 2),
    ]
    for data, size in cases:
        assert check_dict(data, ArgumentLimits(max_chars=size)) is None, data
        problem = check_dict(data, ArgumentLimits(max_chars=size - 1))
        assert problem == f"the arguments are larger than the limit of {size - 1} characters", data


def test_long_containers_are_counted_value_by_value() -> None:
    """Containers of 16 values or more are classified by their value types in C: only
    numbers, only strings, or mixed (then walked as any other)."""
    strings = {f"k{i}": "v" for i in range(16)}  # keys 10 * 2 + 6 * 3, values 16 * 1
    mixed: list[Any] = [0] * 15 + [["x" * 50]]
    cases: list[tuple[dict[str, Any], int]] = [
        ({"m": strings}, 2 + 1 + 1 + 16 + 38 + 16),
        ({"n": [1.5] * 20}, 2 + 1 + 1 + 20),
        ({"n": mixed}, 2 + 1 + 1 + 16 + 1 + 50),
    ]
    for data, size in cases:
        assert check_dict(data, ArgumentLimits(max_chars=size)) is None, data
        problem = check_dict(data, ArgumentLimits(max_chars=size - 1))
        assert problem == f"the arguments are larger than the limit of {size - 1} characters", data
    problem = check_dict({"n": mixed}, ArgumentLimits(max_depth=2))
    assert problem == "the arguments are nested deeper than the limit of 2 levels"
