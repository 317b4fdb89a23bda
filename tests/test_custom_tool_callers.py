"""Custom tools declare who may call them (`model_tool_allowed_callers`), as function
tools do: Responses' `CustomToolParam` takes `allowed_callers` (top-level and inside a
namespace), so a program the model runs can call a custom tool. Chat Completions'
custom tools take none: their definition there is refused when it is asked for, and
Anthropic and Gemini refuse custom tools as before. A whole loop on `FakeOpenAI`: the
program's custom call is read with its caller, answered, and the program ends."""

from __future__ import annotations

from typing import Any

import pytest
from inline_snapshot import snapshot
from openai.types.responses import CustomToolParam, NamespaceToolParam
from pydantic import TypeAdapter

from toolwire._read import read_calls
from toolwire.core import (
    BaseCustomToolModel,
    ProgrammaticCaller,
    ToolGroup,
    ToolNamespace,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolDefinitionError, UnsupportedToolError
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply, check_history


class run_sql(BaseCustomToolModel[None, None]):
    """Run a read-only SQL query."""

    model_tool_allowed_callers = ["programmatic"]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"3 rows for {self.input}", None


class explain(BaseCustomToolModel[None, None]):
    """Explain a SQL query's plan."""

    model_tool_namespace = ToolNamespace("db", "Database tools.")
    model_tool_allowed_callers = ["direct", "code_execution_20260120"]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "seq scan", None


GROUP = ToolGroup.from_list([run_sql, explain])


def test_responses_definitions_carry_the_callers_as_the_sdk_types_them() -> None:
    definitions: list[Any] = GROUP.tool_definitions("responses")
    assert definitions == snapshot(
        [
            {
                "type": "custom",
                "name": "run_sql",
                "description": "Run a read-only SQL query.",
                "allowed_callers": ["programmatic"],
            },
            {
                "type": "namespace",
                "name": "db",
                "description": "Database tools.",
                "tools": [
                    {
                        "type": "custom",
                        "name": "explain",
                        "description": "Explain a SQL query's plan.",
                        "allowed_callers": ["direct", "programmatic"],
                    }
                ],
            },
        ]
    )
    TypeAdapter(CustomToolParam).validate_python(definitions[0], strict=True)
    TypeAdapter(NamespaceToolParam).validate_python(definitions[1], strict=True)


def test_a_custom_tool_without_callers_is_sent_as_before() -> None:
    class plain_sql(BaseCustomToolModel[None, None]):
        """Run SQL."""

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    assert plain_sql.model_tool_definition("responses") == snapshot(
        {"type": "custom", "name": "plain_sql", "description": "Run SQL."}
    )


def test_chat_completions_refuses_the_callers_it_cannot_send() -> None:
    with pytest.raises(UnsupportedToolError) as raised:
        run_sql.model_tool_definition("chat.completions")
    assert str(raised.value) == snapshot(
        "run_sql.model_tool_allowed_callers is ['programmatic'], but chat.completions has no "
        "programmatic tool calling: its custom tool definitions take no allowed_callers. "
        "Offer the tool on OpenAI Responses, or set model_tool_allowed_callers = None (the "
        "model calls it directly) to offer it here."
    )
    with pytest.raises(UnsupportedToolError, match="Anthropic Messages API has no custom"):
        run_sql.model_tool_definition("anthropic")
    with pytest.raises(UnsupportedToolError, match="Gemini has no custom"):
        run_sql.model_tool_definition("gemini")


def test_an_unknown_caller_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(ToolDefinitionError, match=r"names 'nobody', which is no caller"):

        class bad_sql(BaseCustomToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Run SQL."""

            model_tool_allowed_callers = ["nobody"]  # pyright: ignore[reportAssignmentType]

            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return "", None


def test_a_program_calls_a_custom_tool_in_a_whole_loop() -> None:
    fake = FakeOpenAI(
        script=[
            FakeReply(calls=(FakeCall("run_sql", "select 1"), FakeCall("run_sql", "select 2"))),
            FakeReply(text="6 rows."),
        ]
    )
    client = fake.client()
    tools: Any = [{"type": "programmatic_tool_calling"}, *GROUP.tool_definitions("responses")]
    history: list[Any] = [{"role": "user", "content": "Count the rows."}]
    first = client.responses.create(model="gpt-5.5", input=history, tools=tools)
    results = GROUP.run_tool_calls(first, None)
    assert [(r.name, r.result_content) for r in results] == snapshot(
        [("run_sql", "3 rows for select 1"), ("run_sql", "3 rows for select 2")]
    )
    program = next(item for item in first.output if item.type == "program")
    callers = {call.caller for call in read_calls(first, api="responses")}
    assert callers == {ProgrammaticCaller("programmatic", program.call_id)}
    history += assistant_messages(first, "responses")
    history += tool_result_messages(results, "responses")
    assert check_history(history, "responses") == []
    second = client.responses.create(model="gpt-5.5", input=history, tools=tools)
    assert [item.type for item in second.output] == ["program_output", "message"]
    assert second.output_text == "6 rows."
