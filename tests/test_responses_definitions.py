"""Responses tool definitions and the structured-output format, on the SDK's param types."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from inline_snapshot import snapshot
from openai.types.responses import (
    CustomToolParam,
    FunctionToolParam,
    ResponseFormatTextJSONSchemaConfigParam,
)

from toolwire._tool import _function_spec
from toolwire.core import BaseCustomToolModel, BaseFunctionToolModel, ToolGroup
from toolwire.exceptions import ToolDefinitionError


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    model_tool_strict = True

    city: str


class Loose(BaseFunctionToolModel[None, None]):
    """A non-strict tool."""

    x: int


class run_sql(BaseCustomToolModel[None, None]):
    """Run one SQL statement."""

    model_tool_format = {"type": "grammar", "syntax": "lark", "definition": 'start: "SELECT 1"'}


class free_text(BaseCustomToolModel[None, None]):
    """Take any text."""

    model_tool_format = {"type": "text"}


class no_format(BaseCustomToolModel[None, None]):
    """Take any text, no format sent."""


def _required_keys(typed_dict: Any) -> set[str]:
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    return {k for k, v in hints.items() if typing.get_origin(v) is typing.Required}


def test_function_definition_is_flat_with_explicit_strict() -> None:
    """A function tool is the flat FunctionToolParam, `strict` always sent."""
    schema = _function_spec(get_weather, "responses").parameters
    assert get_weather.model_tool_definition("responses") == {
        "type": "function",
        "name": "get_weather",
        "description": "Get the weather in a city.",
        "parameters": schema,
        "strict": True,
    }
    assert Loose.model_tool_definition("responses")["strict"] is False


def test_function_definition_keys_are_the_param_types() -> None:
    """Every key is defined by FunctionToolParam and every Required key is present."""
    definition = get_weather.model_tool_definition("responses")
    hints = typing.get_type_hints(FunctionToolParam, include_extras=True)
    assert set(definition) <= set(hints)
    assert _required_keys(FunctionToolParam) <= set(definition)
    assert _required_keys(FunctionToolParam) == {"name", "parameters", "strict", "type"}


def test_definitions_are_fresh_objects() -> None:
    """Mutating a returned definition (e.g. its schema) does not change the next one."""
    first = get_weather.model_tool_definition("responses")
    parameters = first["parameters"]
    assert parameters is not None
    parameters["mutated"] = True
    second = get_weather.model_tool_definition("responses")
    assert second["parameters"] is not None
    assert "mutated" not in second["parameters"]
    assert first is not second


def test_custom_grammar_is_flat() -> None:
    """Responses custom tools carry the grammar flat (chat nests it under `grammar`)."""
    definition: CustomToolParam = run_sql.model_tool_definition("responses")
    assert definition == snapshot(
        {
            "type": "custom",
            "name": "run_sql",
            "description": "Run one SQL statement.",
            "format": {"type": "grammar", "syntax": "lark", "definition": 'start: "SELECT 1"'},
        }
    )
    assert set(definition) <= set(typing.get_type_hints(CustomToolParam, include_extras=True))


def test_custom_text_format_and_no_format() -> None:
    """A text format is sent as {"type": "text"}; no format sends no `format` key."""
    assert free_text.model_tool_definition("responses") == {
        "type": "custom",
        "name": "free_text",
        "description": "Take any text.",
        "format": {"type": "text"},
    }
    assert no_format.model_tool_definition("responses") == {
        "type": "custom",
        "name": "no_format",
        "description": "Take any text, no format sent.",
    }


def test_group_definitions_in_order() -> None:
    """A group lists every tool's definition, functions and custom tools alike."""
    group = ToolGroup[None, None].from_list([get_weather, run_sql])
    definitions: list[dict[str, Any]] = [dict(d) for d in group.tool_definitions("responses")]
    assert [(d["type"], d["name"]) for d in definitions] == [
        ("function", "get_weather"),
        ("custom", "run_sql"),
    ]


def test_output_format_is_flat_json_schema() -> None:
    """`text={"format": ...}` takes the flat ResponseFormatTextJSONSchemaConfigParam."""
    fmt = get_weather.model_tool_format("responses")
    assert fmt == {
        "type": "json_schema",
        "name": "get_weather",
        "description": "Get the weather in a city.",
        "schema": _function_spec(get_weather, "responses").parameters,
        "strict": True,
    }
    hints = typing.get_type_hints(ResponseFormatTextJSONSchemaConfigParam, include_extras=True)
    assert set(fmt) <= set(hints)
    fmt["schema"]["mutated"] = True
    assert "mutated" not in get_weather.model_tool_format("responses")["schema"]


@pytest.mark.parametrize("name", ["has space", "x" * 65, "dotted.name"])
def test_names_openai_rejects_raise(name: str) -> None:
    """Tool names outside OpenAI's rule raise at definition time, saying how to fix it."""

    class Bad(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_name = name

    class BadCustom(BaseCustomToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_name = name

    with pytest.raises(ToolDefinitionError, match="model_tool_custom_name"):
        Bad.model_tool_definition("responses")
    with pytest.raises(ToolDefinitionError, match="not valid for 'responses'"):
        BadCustom.model_tool_definition("responses")
    with pytest.raises(ToolDefinitionError):
        Bad.model_tool_format("responses")
