"""`group.tool_choice(api, choice, parallel=...)`: one choice, each API's own keyword
arguments, sent through the real SDK clients (the fakes record the wire body), matching
what the live APIs accepted in the recorded traffic, and the known traps refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from google.genai import types
from inline_snapshot import snapshot

from tests.shared_data import CASES, require_shared
from toolwire import aio
from toolwire.core import (
    Api,
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ToolChoiceMode,
    ToolGroup,
)
from toolwire.exceptions import ToolChoiceError, UnsupportedToolError
from toolwire.testing import FakeAnthropic, FakeGemini, FakeOpenAI


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "sunny", None


class get_time(BaseFunctionToolModel[None, None]):
    """Get the time in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "noon", None


class roll_die(BaseFunctionToolModel[None, None]):
    """Roll a die (no arguments)."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "4", None


class sql(BaseCustomToolModel[None, None]):
    """Run a SQL query."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "1 row", None


GROUP = ToolGroup.from_list([get_weather, get_time])
USER = "What is the weather in Paris?"


def sent_chat(**params: Any) -> dict[str, Any]:
    fake = FakeOpenAI()
    fake.client().chat.completions.create(
        model="gpt-4.1",
        messages=[{"role": "user", "content": USER}],
        tools=GROUP.tool_definitions("chat.completions"),
        **params,
    )
    return fake.requests[-1]


def sent_responses(**params: Any) -> dict[str, Any]:
    fake = FakeOpenAI()
    fake.client().responses.create(
        model="gpt-4.1", input=USER, tools=GROUP.tool_definitions("responses"), **params
    )
    return fake.requests[-1]


def sent_anthropic(**params: Any) -> dict[str, Any]:
    fake = FakeAnthropic()
    fake.client().messages.create(
        model="claude-opus-4-6",
        max_tokens=1024,
        messages=[{"role": "user", "content": USER}],
        tools=GROUP.tool_definitions("anthropic"),
        **params,
    )
    return fake.requests[-1]


def sent_gemini(tool_config: types.ToolConfig) -> dict[str, Any]:
    fake = FakeGemini()
    config = types.GenerateContentConfig(
        tools=GROUP.tool_definitions("gemini"),
        tool_config=tool_config,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    fake.client().models.generate_content(model="gemini-2.5-flash", contents=USER, config=config)
    return fake.requests[-1]


CHOICES: list[tuple[ToolChoiceMode, bool | None]] = [
    ("auto", None),
    ("none", None),
    ("required", False),
]


ANTHROPIC_CHOICES: list[tuple[ToolChoiceMode, bool | None]] = [
    ("auto", None),
    ("none", False),  # no parallel switch on "none": dropped
    ("required", False),
]


def wire(body: dict[str, Any]) -> dict[str, Any]:
    keys = ("tool_choice", "parallel_tool_calls", "toolConfig")
    return {key: body[key] for key in keys if key in body}


def test_chat_choices_on_the_wire() -> None:
    assert [
        wire(sent_chat(**GROUP.tool_choice("chat.completions", choice, parallel=parallel)))
        for choice, parallel in CHOICES
    ] + [wire(sent_chat(**GROUP.tool_choice("chat.completions", get_time, parallel=True)))] == (
        snapshot(
            [
                {"tool_choice": "auto"},
                {"tool_choice": "none"},
                {"tool_choice": "required", "parallel_tool_calls": False},
                {
                    "tool_choice": {"type": "function", "function": {"name": "get_time"}},
                    "parallel_tool_calls": True,
                },
            ]
        )
    )


def test_responses_choices_on_the_wire() -> None:
    assert [
        wire(sent_responses(**GROUP.tool_choice("responses", choice, parallel=parallel)))
        for choice, parallel in CHOICES
    ] + [wire(sent_responses(**GROUP.tool_choice("responses", get_time)))] == snapshot(
        [
            {"tool_choice": "auto"},
            {"tool_choice": "none"},
            {"tool_choice": "required", "parallel_tool_calls": False},
            {"tool_choice": {"type": "function", "name": "get_time"}},
        ]
    )


def test_anthropic_choices_on_the_wire() -> None:
    assert [
        wire(sent_anthropic(**GROUP.tool_choice("anthropic", choice, parallel=parallel)))
        for choice, parallel in ANTHROPIC_CHOICES
    ] + [wire(sent_anthropic(**GROUP.tool_choice("anthropic", get_time, parallel=True)))] == (
        snapshot(
            [
                {"tool_choice": {"type": "auto"}},
                {"tool_choice": {"type": "none"}},
                {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}},
                {
                    "tool_choice": {
                        "type": "tool",
                        "name": "get_time",
                        "disable_parallel_tool_use": False,
                    }
                },
            ]
        )
    )


def test_gemini_choices_on_the_wire() -> None:
    assert [
        wire(sent_gemini(**GROUP.tool_choice("gemini", choice)))
        for choice in ("auto", "none", "required", get_time)
    ] == snapshot(
        [
            {"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}},
            {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}},
            {"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}},
            {
                "toolConfig": {
                    "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_time"]}
                }
            },
        ]
    )


@pytest.mark.parametrize(
    ("case", "choice"),
    [
        ("auto-openai", "auto"),
        ("auto-openai_responses", "auto"),
        ("required-anthropic", "required"),
        ("required-google", "required"),
        ("required-openai_responses", "required"),
        ("list_single-anthropic", "get_weather"),
        ("list_single-google", "get_weather"),
        ("list_single-openai", "get_weather"),
        ("list_single-openai_responses", "get_weather"),
    ],
)
def test_what_the_live_apis_accepted(case: str, choice: str) -> None:
    """The recorded requests that got a tool call back carried exactly these values."""
    require_shared()
    path = CASES / f"models__test_tool_choice_matrix__test_tool_choice_matrix-{case}__i0.json"
    recorded = json.loads(path.read_text())
    sender = {
        "openai-chat": (sent_chat, "chat.completions"),
        "openai-responses": (sent_responses, "responses"),
        "anthropic": (sent_anthropic, "anthropic"),
        "gemini": (sent_gemini, "gemini"),
    }
    send, api = cast("tuple[Callable[..., dict[str, Any]], Api]", sender[recorded["api"]])
    forced: ToolChoiceMode | type[get_weather] = (
        get_weather if choice == "get_weather" else "auto" if choice == "auto" else "required"
    )
    params: dict[str, Any] = dict(GROUP.tool_choice(api, forced))
    assert wire(send(**params)) == wire(recorded["request"])


class TestTraps:
    def test_a_forced_choice_with_extended_thinking_is_refused(self) -> None:
        thinking = {"type": "enabled", "budget_tokens": 2048}
        for choice in ("required", get_weather):
            with pytest.raises(ToolChoiceError) as error:
                GROUP.tool_choice("anthropic", choice, thinking=thinking)
        assert str(error.value) == snapshot(
            "Anthropic rejects a forced tool choice ('required' or one named tool) while extended thinking is on (HTTP 400). Use 'auto' and say in the prompt which tool to call, or turn thinking off for this request (adaptive thinking accepts a forced choice)."
        )
        with pytest.raises(ToolChoiceError):
            GROUP.tool_choice("anthropic", "required", thinking=True)

    def test_auto_with_thinking_and_forced_with_adaptive_thinking_are_fine(self) -> None:
        """Recorded: adaptive thinking with `{"type": "any"}` got a tool call back."""
        assert GROUP.tool_choice(
            "anthropic", "auto", thinking={"type": "enabled", "budget_tokens": 2048}
        ) == {"tool_choice": {"type": "auto"}}
        assert GROUP.tool_choice("anthropic", "required", thinking={"type": "adaptive"}) == {
            "tool_choice": {"type": "any"}
        }

    def test_gemini_forces_a_parameterless_tool(self) -> None:
        """Not a trap: the 400 of python-genai#981 is for a declaration with no parameters
        at all, and toolwire declares an (empty) object schema for such a tool."""
        group = ToolGroup.from_list([get_weather, roll_die])
        forced = group.tool_choice("gemini", roll_die)["tool_config"]
        assert forced.function_calling_config == types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=["roll_die"]
        )
        required = group.tool_choice("gemini", "required")["tool_config"]
        assert required.function_calling_config == types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY
        )
        tool: types.Tool = group.tool_definitions("gemini")[0]
        declarations = tool.function_declarations or []
        assert declarations[1].parameters_json_schema == {"properties": {}, "type": "object"}

    def test_gemini_accepted_a_forced_call_with_a_parameterless_tool(self) -> None:
        """Recorded: mode ANY with a parameterless tool declared as an empty object got that
        tool's call back, and the follow-up with its result was accepted."""
        require_shared()
        name = "models__test_google__test_google_tool_config_any_with_tool_without_args__i0"
        recorded = json.loads((CASES / f"{name}.json").read_text())
        request = recorded["request"]
        assert request["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"
        declarations = [d for t in request["tools"] for d in t["functionDeclarations"]]
        assert {"name": "bar", "description": "", "parameters": {"properties": {}, "type": "OBJECT"}} in declarations  # fmt: skip
        response = json.loads(recorded["response"]) if isinstance(recorded["response"], str) else recorded["response"]  # fmt: skip
        parts = response["candidates"][0]["content"]["parts"]
        assert [p["functionCall"]["name"] for p in parts if "functionCall" in p] == ["bar"]
        assert recorded["followup_status"] == 200

    def test_gemini_has_no_parallel_switch(self) -> None:
        with pytest.raises(ToolChoiceError, match="Gemini has no switch for parallel calls"):
            GROUP.tool_choice("gemini", "auto", parallel=False)
        assert GROUP.tool_choice("gemini", "auto", parallel=True) == GROUP.tool_choice(
            "gemini", "auto"
        )

    def test_a_tool_outside_the_group_is_refused(self) -> None:
        with pytest.raises(ToolChoiceError) as error:
            GROUP.tool_choice("responses", roll_die)
        assert str(error.value) == snapshot(
            "roll_die is not in this group, so the model cannot be made to call it. Add it to the group, or choose one of: get_weather, get_time."
        )
        with pytest.raises(ToolChoiceError, match="'always' is not a choice"):
            GROUP.tool_choice("chat.completions", "always")  # pyright: ignore[reportArgumentType, reportCallIssue]

    def test_a_custom_tool_is_forced_in_the_openai_shapes_only(self) -> None:
        group = ToolGroup.from_list([get_weather, sql])
        assert group.tool_choice("chat.completions", sql) == {
            "tool_choice": {"type": "custom", "custom": {"name": "sql"}}
        }
        assert group.tool_choice("responses", sql) == {
            "tool_choice": {"type": "custom", "name": "sql"}
        }
        for api in ("anthropic", "gemini"):
            with pytest.raises(UnsupportedToolError, match="sql is a custom"):
                group.tool_choice(api, sql)


def test_aio_groups_have_it_too() -> None:
    class lookup(aio.BaseFunctionToolModel[None, None]):
        """Look a word up."""

        word: str

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "found", None

    group = aio.ToolGroup.from_list([lookup])
    assert group.tool_choice("chat.completions", lookup) == {
        "tool_choice": {"type": "function", "function": {"name": "lookup"}}
    }
