"""`group.tool_choice(api, mode, among=[...])`: a choice over a subset of the group, in each
API's own words (OpenAI `allowed_tools`, Gemini `allowed_function_names` with ANY or
VALIDATED, Anthropic a narrowed `tools` list with a `PromptCacheWarning`), sent through the
real SDK clients to the fakes, which call only the allowed tools and refuse a subset naming
a tool the request does not offer, as the live APIs do."""

from __future__ import annotations

import json
import warnings
from typing import Any

import anthropic
import openai
import pytest
from google.genai import errors, types
from inline_snapshot import snapshot

from tests.shared_data import CASES, require_shared
from toolwire.core import BaseCustomToolModel, BaseFunctionToolModel, ToolGroup
from toolwire.exceptions import PromptCacheWarning, ToolChoiceError, UnsupportedToolError
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the current weather for a city."""

    model_tool_strict = True

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "Sunny, 22C", None


class get_time(BaseFunctionToolModel[None, None]):
    """Get the current time in a timezone."""

    model_tool_strict = True

    timezone: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "noon", None


class final_result(BaseFunctionToolModel[None, None]):
    """The final response which ends this conversation"""

    model_tool_strict = True

    city: str
    summary: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "done", None


class sql(BaseCustomToolModel[None, None]):
    """Run a SQL query."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "1 row", None


GROUP = ToolGroup.from_list([get_weather, get_time, final_result])
USER = "What is the weather in Paris?"


class TestOnTheWire:
    def test_chat(self) -> None:
        fake = FakeOpenAI()
        params = GROUP.tool_choice("chat.completions", "required", among=[final_result, get_time])
        completion = fake.client().chat.completions.create(
            model="gpt-5",
            messages=[{"role": "user", "content": USER}],
            tools=GROUP.tool_definitions("chat.completions"),
            **params,
        )
        assert fake.requests[-1]["tool_choice"] == snapshot(
            {
                "type": "allowed_tools",
                "allowed_tools": {
                    "mode": "required",
                    "tools": [
                        {"type": "function", "function": {"name": "get_time"}},
                        {"type": "function", "function": {"name": "final_result"}},
                    ],
                },
            }
        )
        assert len(fake.requests[-1]["tools"]) == 3  # the whole group: the cache holds
        calls = completion.choices[0].message.tool_calls or []
        assert [c.function.name for c in calls if c.type == "function"] == [
            "get_time",
            "final_result",
        ]

    def test_responses(self) -> None:
        fake = FakeOpenAI()
        response = fake.client().responses.create(
            model="gpt-5",
            input=USER,
            tools=GROUP.tool_definitions("responses"),
            **GROUP.tool_choice("responses", "auto", among={get_weather}),
        )
        assert fake.requests[-1]["tool_choice"] == snapshot(
            {
                "type": "allowed_tools",
                "mode": "auto",
                "tools": [{"type": "function", "name": "get_weather"}],
            }
        )
        assert [item.name for item in response.output if item.type == "function_call"] == [
            "get_weather"
        ]
        results = GROUP.run_tool_calls(response, None)
        assert [r.result_content for r in results] == ["Sunny, 22C"]

    def test_gemini_required_is_any_and_auto_is_validated(self) -> None:
        fake = FakeGemini()
        sent: list[Any] = []
        for mode in ("required", "auto"):
            config = types.GenerateContentConfig(
                tools=GROUP.tool_definitions("gemini"),
                automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
                **GROUP.tool_choice("gemini", mode, among=[get_time, get_weather]),
            )
            response = fake.client().models.generate_content(
                model="gemini-2.5-flash", contents=USER, config=config
            )
            sent.append(fake.requests[-1]["toolConfig"])
            assert [c.name for c in response.function_calls or []] == ["get_weather", "get_time"]
        assert sent == snapshot(
            [
                {
                    "functionCallingConfig": {
                        "allowedFunctionNames": ["get_weather", "get_time"],
                        "mode": "ANY",
                    }
                },
                {
                    "functionCallingConfig": {
                        "allowedFunctionNames": ["get_weather", "get_time"],
                        "mode": "VALIDATED",
                    }
                },
            ]
        )

    def test_anthropic_narrows_tools_and_says_the_cache_changes(self) -> None:
        fake = FakeAnthropic()
        with pytest.warns(PromptCacheWarning) as caught:
            params = GROUP.tool_choice("anthropic", "required", among=[get_time])
        assert str(caught[0].message) == snapshot(
            "Anthropic has no tool choice over a subset, so these params send only get_time as `tools` (send them instead of your own tools=). The prompt cache starts with the tool list: requests with this list do not reuse what requests with the whole group cached, and the reverse. To keep the cache, send the whole group and say in the prompt which tools to use."
        )
        assert caught[0].filename == __file__  # it points at the caller's line
        message = fake.client().messages.create(
            model="claude-opus-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": USER}],
            **params,
        )
        body = fake.requests[-1]
        assert body["tool_choice"] == {"type": "any"}
        assert [tool["name"] for tool in body["tools"]] == ["get_time"]
        assert body["tools"] == [get_time.model_tool_definition("anthropic")]
        assert [b.name for b in message.content if b.type == "tool_use"] == ["get_time"]

    def test_anthropic_over_the_whole_group_does_not_warn(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            params = GROUP.tool_choice(
                "anthropic", "auto", among=[final_result, get_weather, get_time]
            )
        assert params["tool_choice"] == {"type": "auto"}
        assert params.get("tools") == GROUP.tool_definitions("anthropic")


class TestTheFakesRefuseAnUnknownTool:
    """The live APIs answer 400 to a tool choice naming a tool the request does not offer."""

    def test_chat_and_responses(self) -> None:
        client = FakeOpenAI().client()
        with pytest.raises(openai.BadRequestError, match="the tool 'search' is not in 'tools'"):
            client.chat.completions.create(
                model="gpt-5",
                messages=[{"role": "user", "content": USER}],
                tools=GROUP.tool_definitions("chat.completions"),
                tool_choice={
                    "type": "allowed_tools",
                    "allowed_tools": {
                        "mode": "auto",
                        "tools": [{"type": "function", "function": {"name": "search"}}],
                    },
                },
            )
        with pytest.raises(openai.BadRequestError, match="the tool 'search' is not in 'tools'"):
            client.responses.create(
                model="gpt-5",
                input=USER,
                tools=GROUP.tool_definitions("responses"),
                tool_choice={"type": "function", "name": "search"},
            )

    def test_anthropic(self) -> None:
        with pytest.raises(anthropic.BadRequestError, match="the tool 'search' is not in 'tools'"):
            FakeAnthropic().client().messages.create(
                model="claude-opus-4-6",
                max_tokens=1024,
                messages=[{"role": "user", "content": USER}],
                tools=GROUP.tool_definitions("anthropic"),
                tool_choice={"type": "tool", "name": "search"},
            )

    def test_gemini(self) -> None:
        client = FakeGemini().client()

        def send(config: types.FunctionCallingConfig) -> None:
            client.models.generate_content(
                model="gemini-2.5-flash",
                contents=USER,
                config=types.GenerateContentConfig(
                    tools=GROUP.tool_definitions("gemini"),
                    tool_config=types.ToolConfig(function_calling_config=config),
                ),
            )

        with pytest.raises(errors.ClientError, match="the tool 'search' is not in 'tools'"):
            send(
                types.FunctionCallingConfig(
                    mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=["search"]
                )
            )
        with pytest.raises(
            errors.ClientError, match="only allowed when the mode is ANY or VALIDATED"
        ):
            send(
                types.FunctionCallingConfig(
                    mode=types.FunctionCallingConfigMode.AUTO, allowed_function_names=["get_time"]
                )
            )


class TestMistakesRaise:
    def test_among_needs_auto_or_required(self) -> None:
        for choice in ("none", get_time):
            with pytest.raises(ToolChoiceError, match="among= narrows 'auto' or 'required'"):
                GROUP.tool_choice("responses", choice, among=[get_time])

    def test_among_names_tool_classes_of_the_group(self) -> None:
        class elsewhere(get_time):
            """Not in the group."""

        with pytest.raises(ToolChoiceError) as error:
            GROUP.tool_choice("chat.completions", "auto", among=[get_time, elsewhere])
        assert str(error.value) == snapshot(
            "elsewhere is not in this group, so among= cannot offer it. Add it to the group, or choose one of: get_weather, get_time, final_result."
        )
        with pytest.raises(ToolChoiceError, match="among= is empty"):
            GROUP.tool_choice("gemini", "required", among=[])
        with pytest.raises(ToolChoiceError, match="among= takes tool classes"):
            GROUP.tool_choice("gemini", "required", among=get_time)  # pyright: ignore[reportCallIssue, reportArgumentType]
        with pytest.raises(ToolChoiceError, match="'get_time' is not in this group"):
            GROUP.tool_choice("gemini", "required", among=["get_time"])  # pyright: ignore[reportCallIssue, reportArgumentType]

    def test_custom_tools_only_on_openai(self) -> None:
        group = ToolGroup.from_list([get_weather, sql])
        assert group.tool_choice("responses", "auto", among=[sql])["tool_choice"] == {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "custom", "name": "sql"}],
        }
        assert group.tool_choice("chat.completions", "auto", among=[sql])["tool_choice"] == {
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": "auto",
                "tools": [{"type": "custom", "custom": {"name": "sql"}}],
            },
        }
        for api in ("anthropic", "gemini"):
            with pytest.raises(UnsupportedToolError, match="sql is a custom"):
                group.tool_choice(api, "auto", among=[sql])

    def test_anthropic_extended_thinking_still_refuses_required(self) -> None:
        with pytest.raises(ToolChoiceError, match="extended thinking"):
            GROUP.tool_choice("anthropic", "required", among=[get_time], thinking=True)

    def test_parallel_goes_with_it(self) -> None:
        params = GROUP.tool_choice("chat.completions", "auto", among=[get_time], parallel=False)
        assert params.get("parallel_tool_calls") is False
        with pytest.raises(ToolChoiceError, match="Gemini has no switch"):
            GROUP.tool_choice("gemini", "auto", among=[get_time], parallel=False)


def test_what_the_live_responses_api_accepted() -> None:
    """Recorded: a Responses request with `allowed_tools` over two of three tools got a
    call back, and the follow-up carrying its result (and the same choice) was accepted."""
    require_shared()
    name = "models__test_tool_choice_matrix__test_tool_choice_matrix-tools_plus_output-openai_responses"
    first = json.loads((CASES / f"{name}__i0.json").read_text())
    follow_up = json.loads((CASES / f"{name}__i1.json").read_text())
    assert [t["name"] for t in first["request"]["tools"]] == [t for t in GROUP]
    params = GROUP.tool_choice("responses", "required", among=[final_result, get_weather])

    def normal(choice: Any) -> Any:
        return {**choice, "tools": sorted(choice["tools"], key=lambda t: t["name"])}

    assert normal(params["tool_choice"]) == normal(first["request"]["tool_choice"])
    assert normal(params["tool_choice"]) == normal(follow_up["request"]["tool_choice"])
    assert first["followup_status"] == 200
    # The group's definitions are the ones the live API took with it (field titles aside).
    assert untitled(GROUP.tool_definitions("responses")) == first["request"]["tools"]


def untitled(value: Any) -> Any:
    """`value` without the `title` keys pydantic writes on each field."""
    if isinstance(value, dict):
        return {k: untitled(v) for k, v in value.items() if k != "title"}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [untitled(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value
