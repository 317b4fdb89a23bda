"""Schemas an API cannot take fail at definition time, naming the field and the way out."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot
from pydantic import BaseModel

from toolwire._api import Api
from toolwire._schema import compile_schema
from toolwire.exceptions import SchemaError, ToolwireError

from ._models import AnyField, RequiredRecursion
from .test_schema_battery import tool_schema


def error_for(schema: dict[str, Any], api: Api, *, strict: bool, custom: bool = False) -> str:
    with pytest.raises(SchemaError) as caught:
        compile_schema(schema, api, strict=strict, custom=custom)
    return str(caught.value)


class Payloads(BaseModel):
    meta: dict[str, Any] = {}


class Rows(BaseModel):
    rows: list[Payloads]


class Loose(BaseModel):
    values: list[Any]


class Branch(BaseModel):
    name: str
    subs: list[Branch]


class Forest(BaseModel):
    tree: Branch


def test_any_field_on_openai_strict() -> None:
    """A field typed Any is refused on OpenAI strict, naming the field and the way out."""
    assert error_for(tool_schema(AnyField), "chat.completions", strict=True) == snapshot(
        "Cannot build the chat.completions (strict) schema: field 'payload' accepts any value (a field typed Any, or a list or dict of Any), which chat.completions strict mode cannot express. Way out: give it a concrete type, or set model_tool_strict = False."
    )


def test_dict_of_any_in_a_nested_list_on_anthropic_strict() -> None:
    """The path reaches through lists and nested models to the dict's values."""
    schema = Rows.model_json_schema()
    assert error_for(schema, "anthropic", strict=True) == snapshot(
        "Cannot build the anthropic (strict) schema: field 'rows[].meta{}' accepts any value (a field typed Any, or a list or dict of Any), which anthropic strict mode cannot express. Way out: give it a concrete type, or set model_tool_strict = False."
    )


def test_list_of_any_on_responses_strict() -> None:
    """A list of Any names the list's items."""
    assert error_for(Loose.model_json_schema(), "responses", strict=True) == snapshot(
        "Cannot build the responses (strict) schema: field 'values[]' accepts any value (a field typed Any, or a list or dict of Any), which responses strict mode cannot express. Way out: give it a concrete type, or set model_tool_strict = False."
    )


@pytest.mark.parametrize("strict", [True, False])
def test_required_recursion_on_gemini(strict: bool) -> None:
    """Gemini refuses a required recursive field, strict or not, and says to give a default."""
    message = error_for(tool_schema(RequiredRecursion), "gemini", strict=strict)
    assert (
        message
        == snapshot(
            {
                True: "Cannot build the gemini (strict) schema: field 'children' is required and refers back to its own model; gemini takes recursive references only in properties that are not required (a nullable but required field is not enough). Way out: give the field a default (e.g. `= []`, `= None`) so it is optional.",
                False: "Cannot build the gemini (non-strict) schema: field 'children' is required and refers back to its own model; gemini takes recursive references only in properties that are not required (a nullable but required field is not enough). Way out: give the field a default (e.g. `= []`, `= None`) so it is optional.",
            }
        )[strict]
    )


def test_required_recursion_below_a_field_on_gemini() -> None:
    """The path of a recursive field inside a nested model starts at the root field."""
    assert error_for(Forest.model_json_schema(), "gemini", strict=False) == snapshot(
        "Cannot build the gemini (non-strict) schema: field 'tree.subs' is required and refers back to its own model; gemini takes recursive references only in properties that are not required (a nullable but required field is not enough). Way out: give the field a default (e.g. `= []`, `= None`) so it is optional."
    )


def test_custom_root_union_in_strict_mode() -> None:
    """A custom schema whose root is not an object is refused when strict."""
    schema = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert error_for(schema, "chat.completions", strict=True, custom=True) == snapshot(
        "Cannot build the chat.completions (strict) schema: field '(root)' is not an object schema; chat.completions takes an object of named arguments at the root (a root-level union or scalar cannot be sent). Way out: make the tool a model whose fields are the arguments (wrap a union in a field), or give a custom JSON schema with type object."
    )


def test_custom_variadic_tuple_tail_in_strict_mode() -> None:
    """A tuple with a variable-length tail cannot be sent as an object."""
    schema = {
        "type": "object",
        "properties": {
            "t": {
                "type": "array",
                "prefixItems": [{"type": "integer"}],
                "items": {"type": "string"},
            }
        },
        "required": ["t"],
    }
    assert error_for(schema, "anthropic", strict=True, custom=True) == snapshot(
        "Cannot build the anthropic (strict) schema: field 't' is a tuple with a variable-length tail, which strict mode cannot express. Way out: use a fixed-length tuple, a list, or a model."
    )


def test_custom_all_of_in_openai_strict() -> None:
    """allOf with several schemas is refused where the API does not take allOf."""
    schema = {
        "type": "object",
        "properties": {"x": {"allOf": [{"type": "integer"}, {"minimum": 1}]}},
        "required": ["x"],
    }
    assert error_for(schema, "chat.completions", strict=True, custom=True) == snapshot(
        "Cannot build the chat.completions (strict) schema: field 'x' uses allOf, which chat.completions does not take here. Way out: write the schema without allOf (one object with all the properties), or set model_tool_strict = False."
    )


def test_custom_foreign_reference_on_gemini() -> None:
    """A $ref outside the root's $defs is refused where references must be resolved."""
    schema = {"type": "object", "properties": {"x": {"$ref": "#/definitions/X"}}}
    assert error_for(schema, "gemini", strict=False, custom=True) == snapshot(
        "Cannot build the gemini (non-strict) schema: field 'x' refers to '#/definitions/X', which is not a definition under the root's $defs. Way out: put the schema under the root's $defs and refer to it as #/$defs/<name>."
    )


def test_custom_nested_defs_on_gemini() -> None:
    """Gemini takes $defs only at the root."""
    schema = {
        "type": "object",
        "properties": {"x": {"$defs": {"Y": {"type": "string"}}, "type": "string"}},
    }
    assert error_for(schema, "gemini", strict=False, custom=True) == snapshot(
        "Cannot build the gemini (non-strict) schema: field 'x' has its own $defs; definitions are only allowed at the root. Way out: move the definitions to the root's $defs."
    )


def test_schema_error_is_a_value_error_and_a_toolwire_error() -> None:
    """Callers can catch SchemaError as ValueError or as ToolwireError."""
    with pytest.raises(ValueError) as caught:
        compile_schema(tool_schema(AnyField), "anthropic", strict=True)
    assert isinstance(caught.value, ToolwireError)
