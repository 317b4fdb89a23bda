"""Per-tool fields of issue 26 item 5, sent through the real SDK clients to the fakes:
input examples (instances of the tool class, checked when the class is made; native on
Anthropic, in the description elsewhere and said in the schema report), Anthropic's
eager (fine-grained) input streaming with its cut calls refused, never run, and prompt
cache breakpoints on the tool list and on long results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import anthropic
import pydantic
import pytest
from anthropic.types import MessageParam
from inline_snapshot import snapshot

from toolwire.core import (
    Api,
    BaseFunctionToolModel,
    ChatServer,
    StandardToolCall,
    ToolCallCompleted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolDefinitionError
from toolwire.testing import FakeAnthropic, FakeCall, FakeOpenAI, FakeReply, check_history

RAN: list[str] = []


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the current weather for a city."""

    city: str
    unit: str = pydantic.Field(default="celsius", alias="temperatureUnit")

    @classmethod
    def model_tool_input_examples(cls) -> Sequence[Self]:
        return [cls(city="Paris"), cls(city="Boston", temperatureUnit="fahrenheit")]

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(self.city)
        return "Sunny, 22C", None


class write_file(BaseFunctionToolModel[None, None]):
    """Write a file."""

    model_tool_eager_input_streaming = True

    path: str
    content: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(self.path)
        return "written", None


GROUP = ToolGroup.from_list([get_weather, write_file])
USER = "What is the weather in Paris?"
CALL = StandardToolCall("function", "call_9", "get_weather", {"city": "Oslo"})


def description_of(tool: type[BaseFunctionToolModel[None, None]], api: str) -> str:
    """The description `api`'s definition of `tool` carries."""
    if api == "gemini":
        declarations = tool.model_tool_definition("gemini").function_declarations or []
        return declarations[0].description or ""
    if api == "chat.completions":
        return tool.model_tool_definition("chat.completions")["function"].get("description", "")
    return tool.model_tool_definition("responses").get("description") or ""


class TestInputExamples:
    def test_anthropic_sends_them_in_the_definition_as_the_model_writes_them(self) -> None:
        """Aliases, and only the fields each example sets; the fake checks each against
        the tool's input_schema, as the live API does."""
        fake = FakeAnthropic()
        fake.client().messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": USER}],
            tools=GROUP.tool_definitions("anthropic"),
        )
        sent = fake.requests[-1]["tools"][0]
        assert sent["input_examples"] == snapshot(
            [{"city": "Paris"}, {"city": "Boston", "temperatureUnit": "fahrenheit"}]
        )
        assert sent["description"] == "Get the current weather for a city."
        assert "input_examples" not in fake.requests[-1]["tools"][1]

    @pytest.mark.parametrize("api", ["chat.completions", "responses", "gemini"])
    def test_elsewhere_they_end_the_description_and_the_report_says_so(self, api: Api) -> None:
        assert description_of(get_weather, api) == snapshot(
            """\
Get the current weather for a city.

Example arguments:
{"city": "Paris"}
{"city": "Boston", "temperatureUnit": "fahrenheit"}\
"""
        )
        report = get_weather.model_tool_schema_report(api)
        assert [(c.action, c.lossy) for c in report.changes if c.keyword == "input_examples"] == [
            ("moved_to_description", False)
        ]
        assert "input_examples" not in str(get_weather.model_tool_definition(api))

    def test_responses_accepts_them_in_the_description(self) -> None:
        fake = FakeOpenAI()
        fake.client().responses.create(
            model="gpt-5", input=USER, tools=GROUP.tool_definitions("responses")
        )
        tools: Any = fake.requests[-1]["tools"]
        assert "Example arguments:" in tools[0]["description"]

    def test_an_invalid_example_fails_when_the_class_is_made(self) -> None:
        with pytest.raises(ToolDefinitionError, match=r"built an invalid example") as caught:

            class bad(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                """Bad."""

                count: int

                @classmethod
                def model_tool_input_examples(cls) -> Sequence[Self]:
                    return [cls.model_validate({"count": "many"})]

        assert "Fix the example" in str(caught.value)

    def test_a_dict_that_is_not_valid_arguments_fails_too(self) -> None:
        with pytest.raises(ToolDefinitionError, match=r"\[1\] is not valid arguments of bad"):

            class bad(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                """Bad."""

                count: int

                @classmethod
                def model_tool_input_examples(cls) -> Sequence[Any]:
                    return [cls(count=1), {"count": "many"}]

    def test_a_non_list_says_what_to_return(self) -> None:
        with pytest.raises(ToolDefinitionError, match=r"must return a list of instances of bad"):

            class bad(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
                """Bad."""

                count: int

                @classmethod
                def model_tool_input_examples(cls) -> Any:
                    return cls(count=1)

    def test_the_fake_refuses_an_example_the_schema_refuses(self) -> None:
        """A hand-edited definition with an example of the wrong type is a 400."""
        tools: Any = GROUP.tool_definitions("anthropic")
        tools[0]["input_examples"] = [{"city": 3}]
        with pytest.raises(anthropic.BadRequestError, match=r"input_examples\.0"):
            FakeAnthropic().client().messages.create(
                model="claude-sonnet-4-6",
                max_tokens=1024,
                messages=[{"role": "user", "content": USER}],
                tools=tools,
            )


class TestEagerInputStreaming:
    def test_the_definition_asks_for_it(self) -> None:
        assert write_file.model_tool_definition("anthropic") == snapshot(
            {
                "name": "write_file",
                "input_schema": {
                    "properties": {
                        "path": {"type": "string"},
                        "content": {"type": "string"},
                    },
                    "required": ["path", "content"],
                    "type": "object",
                },
                "description": "Write a file.",
                "eager_input_streaming": True,
            }
        )
        assert "eager" not in str(write_file.model_tool_definition("responses"))

    def test_a_stream_cut_mid_arguments_is_refused_as_cut_never_run(self) -> None:
        """Unbuffered arguments cut by max_tokens end in partial JSON: the call is
        ToolCallTruncated, answered "truncated", and its handler never runs; the answer
        and the replayed turn are a history the API takes."""
        RAN.clear()
        fake = FakeAnthropic(
            script=[
                FakeReply(
                    calls=(FakeCall("write_file", '{"path": "a.md", "content": "# Lorem ip'),),
                    stop="length",
                )
            ]
        )
        stream = ToolCallStream("anthropic")
        events: list[Any] = []
        for event in fake.client().messages.create(
            model="claude-sonnet-4-6",
            max_tokens=64,
            messages=[{"role": "user", "content": "Write a.md"}],
            tools=GROUP.tool_definitions("anthropic"),
            stream=True,
        ):
            events += stream.feed(event)
        assert fake.requests[-1]["tools"][1]["eager_input_streaming"] is True
        ended = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
        assert [type(e).__name__ for e in ended] == ["ToolCallTruncated"]
        final = stream.final_response()
        results = GROUP.run_tool_calls(final, None)
        assert [r.fail_reason for r in results] == ["truncated"]
        assert RAN == []
        history: list[Any] = [
            {"role": "user", "content": "Write a.md"},
            *assistant_messages(final, "anthropic"),
            *tool_result_messages(results, "anthropic"),
        ]
        assert check_history(history, "anthropic") == []


class TestCacheBreakpoints:
    def test_anthropic_marks_the_last_definition_and_the_last_result_block(self) -> None:
        RAN.clear()
        fake = FakeAnthropic(
            script=[FakeReply.tool_calls(("get_weather", {"city": "Paris"})), FakeReply("Sunny.")]
        )
        client = fake.client()
        tools = GROUP.tool_definitions("anthropic", cache_breakpoint="1h")
        assert [t.get("cache_control") for t in tools] == [
            None,
            {"type": "ephemeral", "ttl": "1h"},
        ]
        messages: list[MessageParam] = [{"role": "user", "content": USER}]
        message = client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=tools
        )
        results = GROUP.run_tool_calls(message, None)
        answer = tool_result_messages(results, "anthropic", cache_breakpoint=True)
        assert answer == snapshot(
            [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_fake2",
                            "content": "Sunny, 22C",
                            "cache_control": {"type": "ephemeral"},
                        }
                    ],
                }
            ]
        )
        messages += [*assistant_messages(message, "anthropic"), *answer]
        client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=tools
        )
        assert fake.requests[-1]["messages"][-1] == answer[0]

    def test_anthropic_refuses_a_fifth_breakpoint_as_the_live_api_does(self) -> None:
        """Marking every turn's results reaches the limit of four on the fourth turn
        when the tools hold one too: the fake answers 400, check_history says why."""
        fake = FakeAnthropic(
            script=[FakeReply.tool_calls(("get_weather", {"city": c})) for c in "ABCDE"]
        )
        client = fake.client()
        tools = GROUP.tool_definitions("anthropic", cache_breakpoint=True)
        messages: list[Any] = [{"role": "user", "content": USER}]
        with pytest.raises(anthropic.BadRequestError, match="a maximum of 4 blocks") as caught:
            for _ in range(5):
                message = client.messages.create(
                    model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=tools
                )
                results = GROUP.run_tool_calls(message, None)
                messages += assistant_messages(message, "anthropic")
                messages += tool_result_messages(results, "anthropic", cache_breakpoint=True)
        assert "messages[8] holds" in str(caught.value)
        assert len(fake.requests) == 5
        assert check_history(messages, "anthropic") == []  # four in the messages alone: fine
        cached_prompt = {"type": "text", "text": USER, "cache_control": {"type": "ephemeral"}}
        messages[0] = {"role": "user", "content": [cached_prompt]}
        problems = check_history(messages, "anthropic")
        assert [p.index for p in problems] == [8]
        assert "Found 5" in problems[0].message

    def test_responses_marks_the_last_output_part(self) -> None:
        fake = FakeOpenAI(
            script=[FakeReply.tool_calls(("get_weather", {"city": "Paris"})), FakeReply("Sunny.")]
        )
        client = fake.client()
        tools = GROUP.tool_definitions("responses", cache_breakpoint=True)
        assert "prompt_cache_breakpoint" not in str(tools)  # definitions take none
        response = client.responses.create(model="gpt-5", input=USER, tools=tools)
        results = GROUP.run_tool_calls(response, None)
        answer = tool_result_messages(results, "responses", cache_breakpoint="12h")
        assert answer == snapshot(
            [
                {
                    "type": "function_call_output",
                    "call_id": "call_2",
                    "output": [
                        {
                            "type": "input_text",
                            "text": "Sunny, 22C",
                            "prompt_cache_breakpoint": {"mode": "explicit", "ttl": "12h"},
                        }
                    ],
                }
            ]
        )
        client.responses.create(
            model="gpt-5",
            input=[
                {"role": "user", "content": USER},
                *assistant_messages(response, "responses"),
                *answer,
            ],
            tools=tools,
        )
        assert fake.requests[-1]["input"][-1] == answer[0]

    @pytest.mark.parametrize("api", [ChatServer.OLLAMA, "gemini"], ids=["ollama", "gemini"])
    def test_apis_that_cache_on_their_own_get_nothing(self, api: Api | ChatServer) -> None:
        plain: list[Any] = GROUP.tool_definitions(api)
        assert GROUP.tool_definitions(api, cache_breakpoint=True) == plain
        results = [GROUP.run_tool_call(CALL, None)]
        marked: list[Any] = tool_result_messages(results, api, cache_breakpoint=True)
        assert marked == tool_result_messages(results, api)

    @pytest.mark.parametrize(
        ("api", "ttl", "says"),
        [
            ("anthropic", "12h", "'5m' .* or '1h'"),
            ("responses", "1h", "'30m' .* or '12h'"),
        ],
    )
    def test_a_lifetime_the_api_does_not_take_says_which_it_does(
        self, api: Any, ttl: Any, says: str
    ) -> None:
        with pytest.raises(ValueError, match=says):
            tool_result_messages([GROUP.run_tool_call(CALL, None)], api, cache_breakpoint=ttl)

    def test_a_value_that_is_no_lifetime_says_what_to_pass(self) -> None:
        with pytest.raises(ValueError, match=r"cache_breakpoint='1d': pass True"):
            GROUP.tool_definitions("anthropic", cache_breakpoint="1d")  # pyright: ignore[reportCallIssue, reportArgumentType]
