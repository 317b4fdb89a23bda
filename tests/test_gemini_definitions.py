"""Gemini tool definitions and structured-output formats, as google-genai types."""

from __future__ import annotations

import json
from typing import Any

import pytest
from google.genai import types

from toolwire.core import BaseCustomToolModel, BaseFunctionToolModel, ToolGroup
from toolwire.exceptions import ToolDefinitionError, UnsupportedToolError


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the current weather in a city."""

    model_tool_custom_name = "get_weather"

    city: str
    days: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city}: sunny for {self.days} days", None


class GetTime(BaseFunctionToolModel[None, None]):
    """Get the time in a timezone."""

    model_tool_custom_name = "tools.get_time:v2"

    tz: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "noon", None


class Shell(BaseCustomToolModel[None, None]):
    """Run a shell command."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "ok", None


WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer"},
    },
    "required": ["city", "days"],
}


def test_definition_is_a_tool_with_one_declaration() -> None:
    """A tool's definition is a types.Tool holding one FunctionDeclaration with its JSON schema."""
    tool = GetWeather.model_tool_definition("gemini")
    assert tool == types.Tool(
        function_declarations=[
            types.FunctionDeclaration(
                name="get_weather",
                description="Get the current weather in a city.",
                parameters_json_schema=WEATHER_SCHEMA,
            )
        ]
    )


def test_definition_is_fresh_each_time() -> None:
    """Mutating a returned definition does not change the next one."""
    first = GetWeather.model_tool_definition("gemini")
    declarations = first.function_declarations or []
    schema: Any = declarations[0].parameters_json_schema
    schema["properties"]["city"]["type"] = "number"
    second = GetWeather.model_tool_definition("gemini")
    assert (second.function_declarations or [])[0].parameters_json_schema == WEATHER_SCHEMA


def test_group_definitions_are_one_tool_with_every_declaration() -> None:
    """A group gives a list with ONE types.Tool holding every declaration, in group order."""
    tools = ToolGroup.from_list([GetWeather, GetTime]).tool_definitions("gemini")
    assert len(tools) == 1
    only: types.Tool = tools[0]
    names = [d.name for d in only.function_declarations or []]
    assert names == ["get_weather", "tools.get_time:v2"]


def test_empty_group_has_no_tools() -> None:
    """An empty group offers no Tool at all (a Tool without declarations is useless)."""
    assert ToolGroup[None, None].from_list([]).tool_definitions("gemini") == []


def test_definitions_go_into_the_config_and_on_the_wire() -> None:
    """The definitions are valid config values and serialize to the API's JSON."""
    config = types.GenerateContentConfig(
        tools=ToolGroup.from_list([GetWeather]).tool_definitions("gemini")
    )
    wire = config.model_dump(mode="json", by_alias=True, exclude_none=True)["tools"]
    assert wire == [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": "Get the current weather in a city.",
                    "parametersJsonSchema": WEATHER_SCHEMA,
                }
            ]
        }
    ]


@pytest.mark.parametrize(
    "name", ["1tool", "has space", "slash/name", "a" * 129, "dollar$", "é", "-dash"]
)
def test_names_gemini_rejects_fail_at_definition(name: str) -> None:
    """A name Gemini would reject raises ToolDefinitionError naming the rule."""

    class Bad(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_name = name

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    with pytest.raises(ToolDefinitionError, match="must start with a letter or '_'"):
        Bad.model_tool_definition("gemini")


@pytest.mark.parametrize("name", ["_private", "a" * 128, "ns.tool:v1-2", "Z9"])
def test_names_gemini_accepts(name: str) -> None:
    """Letters or '_' first, then letters, digits, '_', '.', ':' or '-', up to 128 characters."""

    class Good(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_name = name

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    declarations = Good.model_tool_definition("gemini").function_declarations or []
    assert declarations[0].name == name


def test_custom_tools_fail_at_definition_time() -> None:
    """A custom (free-text) tool cannot be offered on Gemini; the error says what to do."""
    with pytest.raises(UnsupportedToolError, match="Gemini has no custom"):
        Shell.model_tool_definition("gemini")
    with pytest.raises(UnsupportedToolError, match="BaseFunctionToolModel"):
        ToolGroup.from_list([Shell]).tool_definitions("gemini")


def test_output_format_splats_into_the_config() -> None:
    """The format is response_mime_type + response_json_schema (with the model's description)."""
    fmt = GetWeather.model_tool_format("gemini")
    assert fmt == {
        "response_mime_type": "application/json",
        "response_json_schema": {
            "description": "Get the current weather in a city.",
            **WEATHER_SCHEMA,
        },
    }
    config = types.GenerateContentConfig(**fmt)
    assert config.response_mime_type == "application/json"
    assert config.response_json_schema == fmt["response_json_schema"]
    json.dumps(config.model_dump(mode="json", exclude_none=True))


def test_output_format_is_fresh_each_time() -> None:
    """Mutating a returned format does not change the next one."""
    GetWeather.model_tool_format("gemini")["response_json_schema"]["required"].append("x")
    assert GetWeather.model_tool_format("gemini")["response_json_schema"]["required"] == [
        "city",
        "days",
    ]
