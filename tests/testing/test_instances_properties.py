"""Property tests: any schema built from the subset gets a valid value or a clear refusal."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.strength import scaled
from toolwire.testing._instances import (
    SUPPORTED_FORMATS,
    UnsupportedSchemaError,
    invalid_instance,
    minimal_instance,
)

from ._jsonschema import conforms

Schema = dict[str, Any]

_sizes = st.integers(min_value=0, max_value=4)
_bounds = st.one_of(
    st.none(), st.integers(min_value=-20, max_value=20), st.sampled_from([0.5, -2.5, 1.25])
)
_steps = st.one_of(st.none(), st.sampled_from([1, 2, 3, 5, 0.5, 0.25, 0.1]))
_names = st.sampled_from(["city", "count", "tags", "when", "a", "b", "unit"])


def _optional(schema: Schema, **optional: Any) -> Schema:
    return {**schema, **{k: v for k, v in optional.items() if v is not None}}


@st.composite
def _strings(draw: st.DrawFn) -> Schema:
    return _optional(
        {"type": "string"},
        minLength=draw(st.one_of(st.none(), _sizes)),
        maxLength=draw(st.one_of(st.none(), st.integers(min_value=0, max_value=30))),
        format=draw(st.one_of(st.none(), st.sampled_from(sorted(SUPPORTED_FORMATS)))),
    )


@st.composite
def _numbers(draw: st.DrawFn) -> Schema:
    exclusive = draw(st.booleans())
    return _optional(
        {"type": draw(st.sampled_from(["integer", "number"]))},
        multipleOf=draw(_steps),
        **{
            ("exclusiveMinimum" if exclusive else "minimum"): draw(_bounds),
            ("exclusiveMaximum" if exclusive else "maximum"): draw(_bounds),
        },
    )


_leaves = st.one_of(
    _strings(),
    _numbers(),
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    st.just({}),
    st.lists(
        st.one_of(st.integers(-3, 3), st.sampled_from(["x", "y"]), st.none()),
        min_size=1,
        max_size=3,
    ).map(lambda values: {"enum": values}),
    st.one_of(st.integers(-3, 3), st.text(max_size=3), st.booleans()).map(
        lambda value: {"const": value}
    ),
)


def _containers(children: st.SearchStrategy[Schema]) -> st.SearchStrategy[Schema]:
    @st.composite
    def arrays(draw: st.DrawFn) -> Schema:
        return _optional(
            {"type": "array", "items": draw(children), "minItems": draw(_sizes)},
            uniqueItems=draw(st.booleans()) or None,
            prefixItems=draw(st.lists(children, max_size=2)) or None,
        )

    @st.composite
    def objects(draw: st.DrawFn) -> Schema:
        props = draw(st.dictionaries(_names, children, max_size=3))
        required = draw(st.lists(_names, max_size=3, unique=True))
        return _optional(
            {
                "type": "object",
                "properties": props,
                "required": [n for n in required if n in props],
            },
            additionalProperties=False if draw(st.booleans()) else None,
            minProperties=draw(st.one_of(st.none(), _sizes)),
        )

    @st.composite
    def unions(draw: st.DrawFn) -> Schema:
        keyword = draw(st.sampled_from(["anyOf", "oneOf", "allOf"]))
        return {keyword: draw(st.lists(children, min_size=1, max_size=3))}

    @st.composite
    def nullable(draw: st.DrawFn) -> Schema:
        return {"anyOf": [draw(children), {"type": "null"}]}

    return st.one_of(arrays(), objects(), unions(), nullable())


SCHEMAS = st.recursive(_leaves, _containers, max_leaves=8)


@settings(max_examples=scaled(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMAS)
def test_minimal_instance_is_valid_or_refused(schema: Schema) -> None:
    """Every generated schema yields a value jsonschema accepts, or UnsupportedSchemaError."""
    try:
        value = minimal_instance(schema)
    except UnsupportedSchemaError as error:
        event(f"refused ({error.keyword})")
        return
    event("built")
    assert conforms(value, schema), value
    assert minimal_instance(schema) == value


@settings(max_examples=scaled(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(_names, SCHEMAS, max_size=3),
    st.lists(_names, max_size=3, unique=True),
    st.booleans(),
)
def test_invalid_instance_is_invalid(
    props: dict[str, Schema], required: list[str], closed: bool
) -> None:
    """Whatever object schema is given, the invalid value really breaks it (or is None)."""
    schema = _optional(
        {"type": "object", "properties": props, "required": required},
        additionalProperties=False if closed else None,
    )
    broken = invalid_instance(schema)
    if broken is not None:
        assert not conforms(broken, schema, formats=False), broken
