"""A small hypothesis strategy generator for the JSON-schema subset our compilers emit.

`instances(schema)` draws JSON values valid under `schema` (checked with jsonschema and its
format checker at the end, so a generator slip shows up as a filtered draw, never as a false
failure of the code under test). Recursion is bounded: past `max_depth` references, lists stay
empty, optional properties are left out and unions prefer branches without references.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, cast

from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

Schema = dict[str, Any]

_ANNOTATIONS = {"title", "description", "default", "examples", "deprecated", "$comment"}
_BOUND = 10**6

json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-_BOUND, _BOUND) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=5,
)


class Checker:
    """A 2020-12 validator that also checks formats, with typed methods."""

    def __init__(self, schema: Schema) -> None:
        self._validator = Draft202012Validator(schema, format_checker=FormatChecker())

    def is_valid(self, value: Any) -> bool:
        """Whether `value` is valid under the schema."""
        return bool(self._validator.is_valid(value))  # pyright: ignore[reportUnknownMemberType]

    def errors(self, value: Any) -> list[ValidationError]:
        """Every violation of the schema by `value`."""
        found = self._validator.iter_errors(value)  # pyright: ignore[reportUnknownMemberType]
        return list(found)


def validator(schema: Schema) -> Checker:
    """A checker for `schema`."""
    return Checker(schema)


def instances(schema: Schema, *, max_depth: int = 3) -> st.SearchStrategy[Any]:
    """JSON values valid under `schema` (an object schema with optional root $defs)."""
    check = validator(schema)
    return _Gen(schema.get("$defs", {}), max_depth).of(schema, 0).filter(check.is_valid)


def _duration(delta: dt.timedelta) -> str:
    return f"P{delta.days}DT{delta.seconds}S"


_FORMATS: dict[str, st.SearchStrategy[str]] = {
    "date": st.dates().map(dt.date.isoformat),
    "date-time": st.datetimes(timezones=st.just(dt.UTC)).map(dt.datetime.isoformat),
    "time": st.times().map(lambda t: t.replace(microsecond=0).isoformat()),
    "duration": st.timedeltas(dt.timedelta(0), dt.timedelta(days=30)).map(_duration),
    "uuid": st.uuids().map(str),
    "email": st.emails(),
    "uri": st.from_regex(r"\Ahttps://[a-z]{1,8}\.example/[a-z0-9]{0,8}\Z"),
    "hostname": st.from_regex(r"\A[a-z]{1,8}\.example\Z"),
    "ipv4": st.ip_addresses(v=4).map(str),
}


class _Gen:
    def __init__(self, defs: dict[str, Any], max_depth: int) -> None:
        self.defs = defs
        self.max_depth = max_depth

    def of(self, schema: Any, depth: int) -> st.SearchStrategy[Any]:
        if schema is True or (
            isinstance(schema, dict) and set(cast(Schema, schema)) <= _ANNOTATIONS
        ):
            return json_values
        node = cast(Schema, schema)
        if "$ref" in node:
            name = node["$ref"].removeprefix("#/$defs/")
            return st.deferred(lambda: self.of(self.defs[name], depth + 1))
        if "enum" in node:
            return st.sampled_from(node["enum"])
        if "const" in node:
            return st.just(node["const"])
        for key in ("anyOf", "oneOf"):
            if key in node:
                branches: list[Any] = node[key]
                if depth >= self.max_depth:
                    flat = [b for b in branches if "$ref" not in json.dumps(b)]
                    branches = flat or branches
                return st.one_of([self.of(branch, depth) for branch in branches])
        kind = node.get("type")
        if isinstance(kind, list):
            kinds = cast("list[str]", kind)
            return st.one_of([self.of({**node, "type": one}, depth) for one in kinds])
        if kind is None:
            kind = "object" if "properties" in node else "any"
        return self._typed(str(kind), node, depth)

    def _typed(self, kind: str, node: Schema, depth: int) -> st.SearchStrategy[Any]:
        match kind:
            case "null":
                return st.none()
            case "boolean":
                return st.booleans()
            case "integer":
                return self._integer(node)
            case "number":
                return self._number(node)
            case "string":
                return self._string(node)
            case "array":
                return self._array(node, depth)
            case "object":
                return self._object(node, depth)
            case _:
                return json_values

    @staticmethod
    def _integer(node: Schema) -> st.SearchStrategy[int]:
        low = node.get("minimum", -_BOUND)
        high = node.get("maximum", _BOUND)
        if "exclusiveMinimum" in node:
            low = node["exclusiveMinimum"] + 1
        if "exclusiveMaximum" in node:
            high = node["exclusiveMaximum"] - 1
        step = node.get("multipleOf")
        if step:
            return st.integers(-(-low // step), high // step).map(lambda n: n * step)
        return st.integers(low, high)

    @staticmethod
    def _number(node: Schema) -> st.SearchStrategy[float]:
        step = node.get("multipleOf")
        if step:
            return st.integers(-1000, 1000).map(lambda n: float(n * step))
        low = node.get("minimum", node.get("exclusiveMinimum", -1e9))
        high = node.get("maximum", node.get("exclusiveMaximum", 1e9))
        return st.floats(
            low,
            high,
            exclude_min="exclusiveMinimum" in node,
            exclude_max="exclusiveMaximum" in node,
            allow_nan=False,
            allow_infinity=False,
        )

    @staticmethod
    def _string(node: Schema) -> st.SearchStrategy[str]:
        low = node.get("minLength", 0)
        high = node.get("maxLength")
        if "pattern" in node:
            # Python's `$` also matches before a final newline; JSON Schema's (ECMA) does not.
            pattern = str(node["pattern"])
            base = st.from_regex(pattern).filter(lambda s: not s.endswith("\n"))
        elif node.get("format") in _FORMATS:
            base = _FORMATS[node["format"]]
        else:
            return st.text(min_size=low, max_size=high if high is not None else 12)
        return base.filter(lambda s: low <= len(s) and (high is None or len(s) <= high))

    def _array(self, node: Schema, depth: int) -> st.SearchStrategy[list[Any]]:
        if "prefixItems" in node:
            return st.tuples(*(self.of(item, depth) for item in node["prefixItems"])).map(list)
        low = node.get("minItems", 0)
        high = node.get("maxItems", low + 3)
        if depth >= self.max_depth:
            high = low
        items = self.of(node.get("items", True), depth)
        if node.get("uniqueItems"):
            return st.lists(items, min_size=low, max_size=high, unique_by=_canonical)
        return st.lists(items, min_size=low, max_size=high)

    def _object(self, node: Schema, depth: int) -> st.SearchStrategy[dict[str, Any]]:
        props: dict[str, Any] = node.get("properties", {})
        required = set(node.get("required", []))
        fixed = {name: self.of(props[name], depth) for name in props if name in required}
        optional = {
            name: self.of(prop, depth)
            for name, prop in props.items()
            if name not in required and depth < self.max_depth
        }
        extra = node.get("additionalProperties")
        patterns: dict[str, Any] = node.get("patternProperties", {})
        if len(patterns) == 1 and extra is None and not props:
            ((pattern, extra),) = patterns.items()
            keys = st.from_regex(pattern, fullmatch=True)
        elif props or not isinstance(extra, dict):
            return st.fixed_dictionaries(fixed, optional=optional)
        else:
            names = node.get("propertyNames", {})
            keys = st.sampled_from(names["enum"]) if "enum" in names else st.text(max_size=6)
        low = node.get("minProperties", 0)
        return st.dictionaries(keys, self.of(extra, depth), min_size=low, max_size=max(low, 3))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
