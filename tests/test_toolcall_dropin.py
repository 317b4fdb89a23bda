"""Code written for toolcall (the OpenAI-only ancestor) runs on toolwire with only its
imports renamed: its public names, `model_tool_standard_definition()`, its format models,
its keyword-only result constructors, and its errors being ValueErrors."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletionMessageCustomToolCall
from openai.types.chat.chat_completion_message_custom_tool_call import Custom

import toolwire.aio
import toolwire.core
from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    StandardCustomToolDefinition,
    StandardCustomToolGrammarFormat,
    StandardCustomToolTextFormat,
    StandardFunctionToolDefinition,
    StandardToolCall,
    ToolCallFailure,
    ToolCallSuccess,
    ToolGroup,
    ToolModelType,
)
from toolwire.exceptions import CallKindMismatchError, CustomToolError, ToolwireWarning

TOOLCALL_NAMES = [
    "AnyCustomToolCall",
    "AnyFunctionToolCall",
    "AnyToolCall",
    "BaseCustomToolModel",
    "BaseFunctionToolModel",
    "ErrorForLLMToSee",
    "FunctionToolGroup",
    "HandlerResult",
    "StandardCustomToolDefinition",
    "StandardCustomToolFormat",
    "StandardCustomToolGrammarFormat",
    "StandardCustomToolTextFormat",
    "StandardFunctionToolDefinition",
    "StandardToolCall",
    "ToolCallFailReason",
    "ToolCallFailure",
    "ToolCallResult",
    "ToolCallSuccess",
    "ToolGroup",
    "ToolModelType",
]
"""Every public name of `toolcall.openai.core` and `toolcall.openai.aio` (toolcall 2.1)."""


class Forecast(BaseFunctionToolModel[None, None]):
    """Get the forecast for a city."""

    model_tool_custom_name = "forecast"
    city: str
    days: int = 3

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city}: sunny for {self.days} days.", None


class StrictForecast(Forecast):
    """Get the forecast for a city (strict)."""

    model_tool_custom_name = "strict_forecast"
    model_tool_strict = True


class Hour(BaseCustomToolModel[None, None]):
    """Save an hour as HH:MM."""

    model_tool_format = StandardCustomToolGrammarFormat(syntax="regex", definition=r"^\d\d:\d\d$")

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Saved {self.input}.", None


class HourAsDict(BaseCustomToolModel[None, None]):
    """Save an hour as HH:MM."""

    model_tool_custom_name = "Hour"
    model_tool_format = {"type": "grammar", "syntax": "regex", "definition": r"^\d\d:\d\d$"}


class Note(BaseCustomToolModel[None, None]):
    """Save a note."""

    model_tool_format = StandardCustomToolTextFormat()


@pytest.mark.parametrize("module", [toolwire.core, toolwire.aio])
def test_every_toolcall_name_is_exported(module: Any) -> None:
    assert [name for name in TOOLCALL_NAMES if name not in module.__all__] == []


@pytest.mark.parametrize("tool", [Forecast, StrictForecast])
def test_a_standard_function_definition_renders_what_the_class_does(
    tool: type[Forecast],
) -> None:
    standard = tool.model_tool_standard_definition()
    assert standard.tool_def_for_chat_completions_api() == tool.model_tool_definition(
        "chat.completions"
    )
    assert standard.tool_def_for_responses_api() == tool.model_tool_definition("responses")
    assert standard.format_for_chat_completions_api() == tool.model_tool_format("chat.completions")
    assert standard.format_for_responses_api() == tool.model_tool_format("responses")


def test_a_standard_function_definition_holds_the_schema_before_compilation() -> None:
    assert StrictForecast.model_tool_standard_definition() == snapshot(
        StandardFunctionToolDefinition(
            name="strict_forecast",
            description="Get the forecast for a city (strict).",
            strict=True,
            json_schema={
                "properties": {
                    "city": {"type": "string"},
                    "days": {"default": 3, "type": "integer"},
                },
                "required": ["city"],
                "type": "object",
            },
        )
    )
    # Compiled per API when rendered: strict makes every field required and nullable.
    assert StrictForecast.model_tool_standard_definition().tool_def_for_responses_api() == snapshot(
        {
            "type": "function",
            "name": "strict_forecast",
            "description": "Get the forecast for a city (strict).",
            "parameters": {
                "properties": {
                    "city": {"type": "string"},
                    "days": {
                        "anyOf": [{"type": "integer"}, {"type": "null"}],
                        "description": "Send null to use the default (3).",
                    },
                },
                "required": ["city", "days"],
                "type": "object",
                "additionalProperties": False,
            },
            "strict": True,
        }
    )


def test_a_custom_json_schema_is_kept_as_given() -> None:
    class Raw(BaseFunctionToolModel[None, None]):
        """Raw schema."""

        model_tool_custom_json_schema = {"type": "object", "title": "Kept", "properties": {}}

    standard = Raw.model_tool_standard_definition()
    assert standard.json_schema == {"type": "object", "title": "Kept", "properties": {}}
    assert standard.tool_def_for_chat_completions_api() == Raw.model_tool_definition(
        "chat.completions"
    )


def test_format_models_give_the_same_definitions_as_dicts() -> None:
    for api in ("chat.completions", "responses"):
        assert Hour.model_tool_definition(api) == HourAsDict.model_tool_definition(api)
    assert Note.model_tool_definition("responses") == snapshot(
        {
            "type": "custom",
            "name": "Note",
            "description": "Save a note.",
            "format": {"type": "text"},
        }
    )


def test_a_standard_custom_definition_renders_what_the_class_does() -> None:
    for tool in (Hour, HourAsDict, Note):
        standard = tool.model_tool_standard_definition()
        assert standard.tool_def_for_chat_completions_api() == tool.model_tool_definition(
            "chat.completions"
        )
        assert standard.tool_def_for_responses_api() == tool.model_tool_definition("responses")
    assert Hour.model_tool_standard_definition() == snapshot(
        StandardCustomToolDefinition(
            name="Hour",
            description="Save an hour as HH:MM.",
            format=StandardCustomToolGrammarFormat(syntax="regex", definition="^\\d\\d:\\d\\d$"),
        )
    )


def test_a_custom_tool_given_a_format_model_runs() -> None:
    call = ChatCompletionMessageCustomToolCall(
        id="call_1", type="custom", custom=Custom(name="Hour", input="09:30")
    )
    [result] = ToolGroup.from_list([Hour]).run_tool_calls([call], None)
    assert result == ToolCallSuccess("call_1", "Hour", "Saved 09:30.", None, "custom")


def test_results_take_toolcalls_keyword_form() -> None:
    success = ToolCallSuccess(type="custom", call_id="c1", result_content="done", context=None)
    failure = ToolCallFailure(
        type="function",
        call_id="c2",
        result_content="no such city",
        fail_reason="explicit_handler_error",
        exception=ValueError("no such city"),
    )
    assert (success.name, failure.name) == ("", "")
    assert success.output_item == snapshot(
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "done"}
    )
    assert failure.tool_message == snapshot(
        {"role": "tool", "tool_call_id": "c2", "content": "no such city"}
    )


def test_a_call_of_the_wrong_kind_is_a_value_error_too() -> None:
    group = ToolGroup.from_list([Forecast])
    call = StandardToolCall(type="custom", id="c1", name="forecast", input="Paris")
    with pytest.raises(CallKindMismatchError) as error:
        group.run_tool_call(call, None)
    assert isinstance(error.value, ValueError) and isinstance(error.value, TypeError)


def test_a_custom_tool_with_a_defaulted_extra_field_warns_and_its_calls_raise() -> None:
    """toolcall let such a class be defined and refused its calls; toolwire also warns."""
    with pytest.warns(ToolwireWarning, match=r"declares \['tag'\]. .*raise CustomToolError"):

        class Tagged(BaseCustomToolModel[None, None]):
            """Tag something."""

            tag: str = "x"

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "tagged", None

    group = ToolGroup.from_list([Tagged])  # building the group and its definitions works
    assert group.tool_definitions("responses") == [Tagged.model_tool_definition("responses")]
    call = StandardToolCall(type="custom", id="c1", name="Tagged", input="a")
    with pytest.raises(CustomToolError, match="may only have the field 'input'") as error:
        group.run_tool_call(call, None)
    assert isinstance(error.value, ValueError)


def test_tool_model_type_names_either_kind() -> None:
    tools: list[type[ToolModelType[None, None]]] = [Forecast, Hour]
    assert [tool.model_tool_name() for tool in tools] == ["forecast", "Hour"]
