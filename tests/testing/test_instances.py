"""Minimal valid and typical invalid values derived from JSON schemas."""

from __future__ import annotations

import datetime
import decimal
import enum
import ipaddress
import json
import pickle
import uuid
from typing import Annotated, Any, Literal

import anthropic
import jsonschema
import pytest
from inline_snapshot import snapshot
from openai.lib._pydantic import to_strict_json_schema
from pydantic import (
    UUID1,
    AnyUrl,
    AwareDatetime,
    Base64Bytes,
    BaseModel,
    Field,
    HttpUrl,
    Json,
    SecretStr,
)

from toolwire.exceptions import ToolwireError
from toolwire.testing._instances import (
    SUPPORTED_FORMATS,
    SUPPORTED_KEYWORDS,
    UnsupportedSchemaError,
    invalid_instance,
    minimal_instance,
)

from ._jsonschema import conforms, lower_types

_valid = conforms


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    """Where to deliver."""

    street: str
    unit: str | None = None


class Cat(BaseModel):
    kind: Literal["cat"]
    meows: int


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: bool


class Node(BaseModel):
    value: int
    children: list[Node] = []
    next: Node | None = None


class StrictNode(BaseModel):
    value: int
    next: StrictNode | None


class GetWeather(BaseModel):
    city: str
    units: Literal["C", "F"] = "C"
    days: Annotated[int, Field(ge=1, le=14)] = 1


class Scalars(BaseModel):
    name: Annotated[str, Field(min_length=5, max_length=6)]
    count: Annotated[int, Field(ge=3, multiple_of=5)]
    ratio: Annotated[float, Field(gt=0, lt=1)]
    price: Annotated[float, Field(multiple_of=0.01, ge=2.5)]
    flag: bool
    amount: decimal.Decimal
    maybe: int | None
    either: int | str


class Untyped(BaseModel):
    anything: Any
    many: list[Any]


class Formats(BaseModel):
    when: datetime.datetime
    aware: AwareDatetime
    day: datetime.date
    at: datetime.time
    span: datetime.timedelta
    ident: uuid.UUID
    ident1: UUID1
    site: AnyUrl
    page: HttpUrl
    ip4: ipaddress.IPv4Address
    ip6: ipaddress.IPv6Address
    net: ipaddress.IPv4Network
    secret: SecretStr
    raw: bytes
    b64: Base64Bytes
    payload: Json[list[int]]


class Containers(BaseModel):
    tags: list[str]
    some: Annotated[list[str], Field(min_length=2, max_length=3)]
    distinct: Annotated[set[int], Field(min_length=3)]
    pair: tuple[int, str]
    scores: dict[str, int]
    keyed: Annotated[dict[Literal["a", "b"], int], Field(min_length=2)]
    color: Color
    shade: Color | None = None


class Nested(BaseModel):
    address: Address
    described: Address = Field(description="has a $ref with siblings")
    pet: Cat | Dog = Field(discriminator="kind")
    pets: Annotated[list[Cat | Dog], Field(min_length=1)]
    tree: Node
    chain: StrictNode


BATTERY: list[type[BaseModel]] = [GetWeather, Scalars, Untyped, Formats, Containers, Nested]
STRICTABLE = [m for m in BATTERY if m is not Untyped]
"""`anthropic.transform_schema` refuses a schema without a type (an `Any` field)."""

UNSUPPORTED = object()


def test_pydantic_battery_values() -> None:
    """Each model gets a small readable value that jsonschema and the model itself accept."""
    values: dict[str, Any] = {}
    for model in BATTERY:
        schema = model.model_json_schema()
        value = minimal_instance(schema, where=f"tool {model.__name__!r}")
        assert _valid(value, schema), model.__name__
        model.model_validate(value)
        model.model_validate_json(json.dumps(value))
        values[model.__name__] = value
    assert values == snapshot(
        {
            "GetWeather": {"city": "city"},
            "Scalars": {
                "name": "namex",
                "count": 5,
                "ratio": 0.5,
                "price": 2.5,
                "flag": False,
                "amount": 1.0,
                "maybe": 1,
                "either": 1,
            },
            "Untyped": {"anything": "anything", "many": []},
            "Formats": {
                "when": "2025-01-01T12:00:00Z",
                "aware": "2025-01-01T12:00:00Z",
                "day": "2025-01-01",
                "at": "12:00:00Z",
                "span": "P1D",
                "ident": "00000000-0000-4000-8000-000000000000",
                "ident1": "00000000-0000-1000-8000-000000000000",
                "site": "https://example.com/",
                "page": "https://example.com/",
                "ip4": "192.0.2.1",
                "ip6": "2001:db8::1",
                "net": "10.0.0.0/24",
                "secret": "secret",
                "raw": "raw",
                "b64": "YjY0",
                "payload": "[]",
            },
            "Containers": {
                "tags": [],
                "some": ["some", "some"],
                "distinct": [1, 2, 0],
                "pair": [1, "pair"],
                "scores": {},
                "keyed": {"a": 1, "b": 1},
                "color": "red",
            },
            "Nested": {
                "address": {"street": "street"},
                "described": {"street": "street"},
                "pet": {"kind": "cat", "meows": 1},
                "pets": [{"kind": "cat", "meows": 1}],
                "tree": {"value": 1},
                "chain": {"value": 1, "next": None},
            },
        }
    )


@pytest.mark.parametrize("model", STRICTABLE, ids=lambda m: m.__name__)
def test_strict_variants_of_the_battery(model: type[BaseModel]) -> None:
    """The OpenAI-strict and Anthropic-transformed schemas of each model get valid values too."""
    for schema in (to_strict_json_schema(model), anthropic.transform_schema(model)):
        value = minimal_instance(schema)
        assert _valid(value, schema)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, "text"),
        ({"type": "string", "maxLength": 2}, "te"),
        ({"type": "string", "minLength": 8}, "textxxxx"),
        ({"type": "integer"}, 1),
        ({"type": "integer", "minimum": 7}, 7),
        ({"type": "integer", "exclusiveMinimum": 7}, 8),
        ({"type": "integer", "maximum": -3}, -3),
        ({"type": "integer", "minimum": 0.5, "maximum": 0.9, "multipleOf": 0.25}, UNSUPPORTED),
        ({"type": "integer", "multipleOf": 0.5, "minimum": 2}, 2),
        ({"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2}, 1.5),
        ({"type": "number", "multipleOf": 0.3}, 0.9),
        ({"type": "boolean"}, False),
        ({"type": "null"}, None),
        ({"type": ["null", "string"]}, "text"),
        ({"type": "STRING"}, "text"),
        ({"type": "string", "nullable": True}, "text"),
        ({"const": 3}, 3),
        ({"type": "string", "enum": [1, "b", "c"]}, "b"),
        ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, 1),
        ({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}, "text"),
        ({"oneOf": [{"type": "string", "minLength": 1}, {"type": "string"}]}, UNSUPPORTED),
        ({"allOf": [{"type": "number", "minimum": 2}, {"type": "integer", "maximum": 9}]}, 2),
        (
            {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"type": "array", "minItems": 1},
            },
            '["text"]',
        ),
        (
            {"type": "array", "minItems": 2, "uniqueItems": True, "items": {"enum": ["x", "y"]}},
            ["x", "y"],
        ),
        ({"type": "array", "prefixItems": [{"type": "integer"}], "minItems": 2}, [1, "text"]),
        ({"type": "object", "minProperties": 1, "propertyNames": {"enum": ["k"]}}, {"k": "k"}),
        ({"properties": {"a": {"type": "integer"}}, "minProperties": 1}, {"a": 1}),
        ({}, "text"),
        (True, "text"),
    ],
)
def test_keyword_handling(schema: Any, expected: Any) -> None:
    """Each supported keyword is honoured; UNSUPPORTED marks a schema the subset cannot satisfy."""
    if expected is UNSUPPORTED:
        with pytest.raises(UnsupportedSchemaError):
            minimal_instance(schema)
        return
    value = minimal_instance(schema)
    assert value == expected
    assert type(value) is type(expected)
    assert conforms(value, lower_types(schema))


def test_draft4_boolean_exclusive_bounds() -> None:
    """The draft-4 / OpenAPI 3.0 spelling `exclusiveMinimum: true` applies to `minimum`."""
    schema = {
        "type": "integer",
        "minimum": 5,
        "exclusiveMinimum": True,
        "maximum": 9,
        "exclusiveMaximum": True,
    }
    value = minimal_instance(schema)
    assert value == 6
    jsonschema.validate(value, schema, cls=jsonschema.Draft4Validator)
    assert minimal_instance({**schema, "exclusiveMinimum": False}) == 5


@pytest.mark.parametrize("fmt", sorted(SUPPORTED_FORMATS))
def test_every_supported_format_is_well_formed(fmt: str) -> None:
    """Every listed format gives distinct values for the first variants, valid for jsonschema."""
    schema = {
        "type": "array",
        "items": {"type": "string", "format": fmt},
        "minItems": 3,
        "uniqueItems": True,
    }
    value = minimal_instance(schema)
    assert len(set(value)) == 3
    assert _valid(value, schema)


def test_recursion_stops_at_an_optional_edge() -> None:
    """A self-reference through a required nullable field ends in null, not a loop."""
    schema = StrictNode.model_json_schema()
    assert minimal_instance(schema) == {"value": 1, "next": None}


def test_optional_unsupported_keywords_do_no_harm() -> None:
    """An unsupported keyword on a property that is left out is never looked at."""
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "zip": {"type": "string", "pattern": "^[0-9]+$"},
        },
        "required": ["city"],
    }
    assert minimal_instance(schema) == {"city": "city"}


def test_default_is_not_used() -> None:
    """Defaults are ignored: required properties get derived values, optional ones are left out."""
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "default": 42},
            "m": {"type": "integer", "default": 7},
        },
        "required": ["n"],
    }
    assert minimal_instance(schema) == {"n": 1}


@pytest.mark.parametrize(
    ("schema", "path", "keyword"),
    [
        ({"type": "string", "pattern": "^a"}, "#", "pattern"),
        ({"not": {"type": "string"}}, "#", "not"),
        ({"if": {"type": "string"}, "then": {"minLength": 2}}, "#", "if"),
        ({"type": "object", "patternProperties": {"^x": {}}}, "#", "patternProperties"),
        ({"$ref": "https://example.com/schema.json"}, "#", "$ref"),
        ({"$ref": "#/$defs/Missing"}, "#", "$ref"),
        (
            {
                "$defs": {
                    "N": {
                        "type": "object",
                        "properties": {"n": {"$ref": "#/$defs/N"}},
                        "required": ["n"],
                    }
                },
                "$ref": "#/$defs/N",
            },
            "#/$defs/N/properties/n",
            "$ref",
        ),
        ({"allOf": [{"const": 1}, {"const": 2}]}, "#/allOf", "allOf"),
        ({"type": "string", "format": "file-path"}, "#", "format"),
        ({"type": "string", "format": "date", "maxLength": 4}, "#", "maxLength"),
        ({"type": "integer", "minimum": 3, "maximum": 2}, "#", "multipleOf"),
        ({"type": "number", "minimum": 3, "maximum": 2}, "#", "minimum"),
        ({"type": "array", "minItems": 3, "maxItems": 2}, "#", "maxItems"),
        (
            {"type": "array", "minItems": 3, "uniqueItems": True, "items": {"type": "boolean"}},
            "#",
            "uniqueItems",
        ),
        (
            {"type": "object", "required": ["a"], "additionalProperties": False},
            "#/required",
            "additionalProperties",
        ),
        ({"type": "object", "required": ["a", "b"], "maxProperties": 1}, "#", "maxProperties"),
        ({"enum": ["a"], "type": "integer"}, "#", "enum"),
        (False, "#", "false"),
    ],
)
def test_outside_the_subset(schema: Any, path: str, keyword: str) -> None:
    """Schemas outside the subset raise an error naming the JSON pointer and the keyword."""
    with pytest.raises(UnsupportedSchemaError) as caught:
        minimal_instance(schema, where="tool 'probe'")
    assert (caught.value.where, caught.value.path, caught.value.keyword) == (
        "tool 'probe'",
        path,
        keyword,
    )


def test_deep_nesting_is_refused_not_a_crash() -> None:
    """A schema nested hundreds of levels deep raises UnsupportedSchemaError, not RecursionError."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(400):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"]}
    with pytest.raises(UnsupportedSchemaError) as caught:
        minimal_instance(schema)
    assert caught.value.keyword == "depth"
    chain: dict[str, Any] = {f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(400)}
    chain["D400"] = {"type": "integer"}
    with pytest.raises(UnsupportedSchemaError):
        minimal_instance({"$defs": chain, "$ref": "#/$defs/D0"})
    assert invalid_instance(schema) == {"x": "many"}


def test_unsupported_error_message() -> None:
    """The message names the tool, the place and the keyword, and says to script the reply."""
    schema = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}},
        "required": ["code"],
    }
    with pytest.raises(UnsupportedSchemaError) as caught:
        minimal_instance(schema, where="tool 'get_weather'")
    assert str(caught.value) == snapshot(
        "Cannot build a value for tool 'get_weather' at #/properties/code (keyword 'pattern'): 'pattern' is outside the subset of JSON Schema the fake can satisfy. Script this reply instead, giving the offline fake the exact tool calls or JSON it should send."
    )
    assert isinstance(caught.value, ToolwireError)
    assert isinstance(caught.value, ValueError)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (str(copy), copy.keyword) == (str(caught.value), "pattern")


def test_supported_keywords_are_documented() -> None:
    """The subset is the documented list: constraints, combinators, refs and annotations."""
    assert sorted(SUPPORTED_KEYWORDS) == snapshot(
        [
            "$anchor",
            "$comment",
            "$defs",
            "$id",
            "$ref",
            "$schema",
            "additionalProperties",
            "allOf",
            "anyOf",
            "const",
            "contentMediaType",
            "contentSchema",
            "default",
            "definitions",
            "deprecated",
            "description",
            "discriminator",
            "enum",
            "example",
            "examples",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "format",
            "items",
            "maxItems",
            "maxLength",
            "maxProperties",
            "maximum",
            "minItems",
            "minLength",
            "minProperties",
            "minimum",
            "multipleOf",
            "nullable",
            "oneOf",
            "prefixItems",
            "properties",
            "propertyNames",
            "propertyOrdering",
            "readOnly",
            "required",
            "title",
            "type",
            "uniqueItems",
            "writeOnly",
        ]
    )


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (
            {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            {"city": 100},
        ),
        (
            {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
            {"n": "many"},
        ),
        ({"type": "object", "properties": {"x": {}}, "required": ["x"]}, {}),
        ({"type": "object", "properties": {"x": {"type": "boolean"}}}, {"x": "many"}),
        (
            {"type": "object", "properties": {"x": {}}, "additionalProperties": False},
            {"unexpected_argument": "unexpected"},
        ),
        (
            {
                "type": "object",
                "properties": {"s": {"type": ["string", "null"]}},
                "required": ["s"],
            },
            {"s": 100},
        ),
        (
            {"type": "object", "properties": {"c": {"enum": ["C", "F"]}}, "required": ["c"]},
            {"c": 100},
        ),
        ({"type": "object"}, None),
        ({"type": "object", "properties": {"x": {}}}, None),
        ({}, None),
        ({"type": "array"}, {}),
    ],
)
def test_invalid_instance(schema: dict[str, Any], expected: dict[str, Any] | None) -> None:
    """The first provably invalid typical mistake is returned, or None when any object fits."""
    assert invalid_instance(schema) == expected
    if expected is not None:
        assert not _valid(expected, schema)


@pytest.mark.parametrize("model", BATTERY, ids=lambda m: m.__name__)
def test_invalid_instance_of_the_battery(model: type[BaseModel]) -> None:
    """For each model the invalid value differs from the minimal one in exactly one field."""
    schema = model.model_json_schema()
    value = invalid_instance(schema)
    assert value is not None
    assert not _valid(value, schema)
    minimal = minimal_instance(schema)
    changed = [k for k in value.keys() | minimal.keys() if value.get(k, ...) != minimal.get(k, ...)]
    assert len(changed) == 1


def test_invalid_instance_when_no_minimal_value_exists() -> None:
    """A schema outside the subset still gets a typical wrong value."""
    schema = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^x"}},
        "required": ["code"],
    }
    assert invalid_instance(schema) == {"code": 100}


def test_an_enum_value_must_also_fit_the_format() -> None:
    """Found by the property test: the schema checker treats `format` as an annotation, so
    an enum value that is not an email was sent for an email field; validators that check
    formats reject it. Values that break a format the fake knows are skipped."""
    email = {"type": "string", "format": "email"}
    with pytest.raises(UnsupportedSchemaError, match="no enum value fits"):
        minimal_instance({"allOf": [email, {"enum": ["x"]}]})
    assert minimal_instance({"allOf": [email, {"enum": ["x", "a@b.example"]}]}) == "a@b.example"
    with pytest.raises(UnsupportedSchemaError, match="const value breaks"):
        minimal_instance({"type": "string", "format": "date", "const": "yesterday"})
