"""The Chat Completions fake calls a custom tool as the live API does: a `custom` call
carrying free text, streamed or not, so a loop over it runs the tool and goes on."""

from __future__ import annotations

from typing import Any

from inline_snapshot import snapshot

from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply


class run_sql(BaseCustomToolModel[None, None]):
    """Run SQL."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"ran {self.input}", None


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup[None, None].from_list([run_sql, get_weather])
TOOLS = GROUP.tool_definitions("chat.completions")
SCRIPT = [
    FakeReply(
        calls=(
            FakeCall("run_sql", "select 1", id="call_a"),
            FakeCall("get_weather", {"city": "Paris"}, id="call_b"),
        )
    ),  # fmt: skip
    FakeReply(text="Done."),
]


def test_a_custom_tool_gets_a_custom_call_and_the_loop_goes_on() -> None:
    client = FakeOpenAI(script=SCRIPT).client()
    messages: list[Any] = [{"role": "user", "content": "Query, then the weather."}]
    response = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    tool_calls: list[Any] = response.choices[0].message.tool_calls or []
    assert [call.model_dump(exclude_none=True) for call in tool_calls] == snapshot(
        [
            {"id": "call_a", "custom": {"input": "select 1", "name": "run_sql"}, "type": "custom"},
            {
                "id": "call_b",
                "function": {"arguments": '{"city": "Paris"}', "name": "get_weather"},
                "type": "function",
            },
        ]
    )
    results = GROUP.run_tool_calls(response, None)
    assert [r.result_content for r in results] == ["ran select 1", "Sunny in Paris."]
    messages += assistant_messages(response, "chat.completions") + tool_result_messages(
        results, "chat.completions"
    )
    final = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    assert final.choices[0].message.content == "Done."


def test_a_streamed_custom_call_completes_with_its_text() -> None:
    client = FakeOpenAI(script=SCRIPT).client()
    messages: list[Any] = [{"role": "user", "content": "Query, then the weather."}]
    stream = ToolCallStream("chat.completions")
    completed = [
        event.call
        for chunk in client.chat.completions.create(
            model="m", messages=messages, tools=TOOLS, stream=True
        )
        for event in stream.feed(chunk)
        if isinstance(event, ToolCallCompleted)
    ]
    assert [(c.type, c.id, c.name, c.input) for c in completed] == [
        ("custom", "call_a", "run_sql", "select 1"),
        ("function", "call_b", "get_weather", '{"city": "Paris"}'),
    ]
    response = stream.final_response()
    results = GROUP.run_tool_calls(response, None)
    messages += assistant_messages(response, "chat.completions") + tool_result_messages(
        results, "chat.completions"
    )
    final = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    assert final.choices[0].message.content == "Done."
