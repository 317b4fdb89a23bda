"""`api="anthropic"` on the SDK's own types: definitions, calls in, history out, turns."""

from __future__ import annotations

import subprocess
import sys
import typing
from typing import Any

import pytest
import typing_extensions
from anthropic.types import (
    ContentBlockParam,
    JSONOutputFormatParam,
    Message,
    MessageParam,
    ParsedMessage,
    ToolParam,
    ToolUseBlock,
    ToolUseBlockParam,
)
from anthropic.types.beta import BetaContentBlockParam, BetaMessage, BetaToolUseBlock
from inline_snapshot import snapshot

from tests.test_anthropic_param_keys import undefined_keys
from toolwire._adapters.anthropic.replay import PARAM_KEYS
from toolwire._tool import _function_spec
from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    StandardToolCall,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import (
    SchemaError,
    ToolDefinitionError,
    ToolwireError,
    ToolwireWarning,
    UnsupportedToolError,
)


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str
    days: int = 1

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city}: sunny for {self.days} day(s)", None


class get_time(BaseFunctionToolModel[None, None]):
    """Get the local time in a city."""

    model_tool_strict = True
    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city}: 12:00", None


group = ToolGroup[None, None].from_list([get_weather, get_time])


def message(*content: dict[str, Any], stop_reason: str = "tool_use", **extra: Any) -> Message:
    """A Message as the API returns it, from JSON-like blocks."""
    return Message.model_validate(
        {
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": list(content),
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 7},
            **extra,
        }
    )


def tool_use(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


THINKING = {"type": "thinking", "thinking": "Weather first.", "signature": "c2lnbmF0dXJl+/=="}
REDACTED = {"type": "redacted_thinking", "data": "RW5jcnlwdGVk\nZGF0YQ=="}


# -- definitions -----------------------------------------------------------------------


def test_definitions_are_tool_params() -> None:
    """ToolParam dicts carrying the schema compiled for Anthropic: `strict` only on strict
    tools, no description key when there is none, fresh objects on every call."""

    class no_docs(BaseFunctionToolModel[None, None]):
        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    def compiled(tool: type[BaseFunctionToolModel[None, None]]) -> dict[str, Any]:
        return _function_spec(tool, "anthropic").parameters

    with pytest.warns(ToolwireWarning, match="'no_docs' .* has no description"):
        compiled(no_docs)
    assert group.tool_definitions("anthropic") == [
        {
            "name": "get_weather",
            "input_schema": compiled(get_weather),
            "description": "Get the weather in a city.",
        },
        {
            "name": "get_time",
            "input_schema": compiled(get_time),
            "description": "Get the local time in a city.",
            "strict": True,
        },
    ]
    assert no_docs.model_tool_definition("anthropic") == {
        "name": "no_docs",
        "input_schema": compiled(no_docs),
    }
    assert compiled(get_time)["properties"] == {"city": {"type": "string"}}
    first: dict[str, Any] = dict(get_weather.model_tool_definition("anthropic"))
    first["input_schema"]["required"].append("changed")
    fresh = get_weather.model_tool_definition("anthropic")["input_schema"]
    assert fresh.get("required") == ["city"]
    for definition in group.tool_definitions("anthropic"):
        assert undefined_keys(definition, ToolParam) == []


@pytest.mark.parametrize("name", ["has space", "dotted.name", "x" * 65])
def test_names_anthropic_rejects_raise(name: str) -> None:
    """Names outside `^[a-zA-Z0-9_-]{1,64}$` raise at definition time."""

    class Tool(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_name = name

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    with pytest.raises(ToolDefinitionError, match="not valid for 'anthropic'"):
        Tool.model_tool_definition("anthropic")


def test_custom_tools_fail_at_definition_time() -> None:
    """A custom (grammar) tool raises UnsupportedToolError saying Anthropic has none."""

    class shell(BaseCustomToolModel[None, None]):
        """Run a shell command."""

        model_tool_format = {"type": "grammar", "syntax": "regex", "definition": "ls .*"}

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return self.input, None

    with pytest.raises(UnsupportedToolError, match="Anthropic Messages API has no custom"):
        shell.model_tool_definition("anthropic")


def test_a_root_that_is_not_an_object_raises() -> None:
    """A custom schema whose root is not an object cannot be an input_schema."""

    class listing(BaseFunctionToolModel[None, None]):
        """A tool (described, so no warning)."""

        model_tool_custom_json_schema = {"type": "array", "items": {"type": "string"}}

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "", None

    with pytest.raises(SchemaError, match="input_schema.type must be 'object'"):
        listing.model_tool_definition("anthropic")


def test_output_format_is_a_json_output_format_param() -> None:
    """`model_tool_format("anthropic")` is the value for output_config={"format": ...}: the
    compiled schema with the docstring at its root, with no name and no strict flag
    (Anthropic's format has neither, so the root is where the instructions go)."""
    fmt = get_time.model_tool_format("anthropic")
    assert fmt == {
        "type": "json_schema",
        "schema": {
            "description": "Get the local time in a city.",
            **_function_spec(get_time, "anthropic").parameters,
        },
    }
    assert undefined_keys(fmt, JSONOutputFormatParam) == []


# -- calls in --------------------------------------------------------------------------


def test_every_call_form_reads_the_same() -> None:
    """ToolUseBlock, BetaToolUseBlock, the param dict, Message, BetaMessage, ParsedMessage,
    its dict form and the content list all give the same calls; input is passed through."""
    msg = message(
        {"type": "text", "text": "Let me check."}, tool_use("toolu_1", "get_weather", city="Oslo")
    )
    block = msg.content[1]
    assert isinstance(block, ToolUseBlock)
    param: ToolUseBlockParam = {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "get_weather",
        "input": {"city": "Oslo"},
    }
    forms: list[Any] = [
        block,
        BetaToolUseBlock.model_validate(block.model_dump()),
        param,
        msg,
        BetaMessage.model_validate(msg.model_dump()),
        ParsedMessage[None].model_validate(msg.model_dump()),
        msg.model_dump(),
        msg.content,
        [b.model_dump() for b in msg.content],
    ]
    expected = [StandardToolCall("function", "toolu_1", "get_weather", {"city": "Oslo"})]
    for form in forms:
        assert [r.call_id for r in group.run_tool_calls(form, None)] == ["toolu_1"]
        assert StandardToolCall.from_any_call(block) == expected[0]
    results = group.run_tool_calls(msg, None)
    assert [(r.name, r.result_content) for r in results] == [
        ("get_weather", "Oslo: sunny for 1 day(s)")
    ]


def test_input_dict_is_validated_without_a_json_round_trip() -> None:
    """The input dict reaches the StandardToolCall as is and validates like JSON would."""
    msg = message(tool_use("toolu_1", "get_weather", city="Oslo", days=3.0))
    assert group.run_tool_calls(msg, None)[0].result_content == "Oslo: sunny for 3 day(s)"
    block = msg.content[0]
    assert isinstance(block, ToolUseBlock)
    assert StandardToolCall.from_any_call(block).input is block.input


def test_non_call_blocks_are_skipped() -> None:
    """Text, thinking, redacted thinking and server tool blocks are not calls."""
    msg = message(
        THINKING,
        REDACTED,
        {"type": "text", "text": "Searching."},
        {
            "type": "server_tool_use",
            "id": "srvtoolu_1",
            "name": "web_search",
            "input": {"query": "oslo"},
        },
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        tool_use("toolu_1", "get_time", city="Oslo"),
        tool_use("toolu_2", "get_weather", city="Oslo"),
    )
    results = group.run_tool_calls(msg, None)
    assert [(r.call_id, r.result_content) for r in results] == [
        ("toolu_1", "Oslo: 12:00"),
        ("toolu_2", "Oslo: sunny for 1 day(s)"),
    ]


def test_missing_ids_are_synthesized_the_same_everywhere() -> None:
    """A tool_use without an id gets a stable id from the message id and its ordinal, and
    the replayed turn carries the same id."""
    msg = message(tool_use("toolu_1", "get_time", city="A"), tool_use("", "get_time", city="B"))
    results = group.run_tool_calls(msg, None)
    assert [r.call_id for r in results] == ["toolu_1", "toolwire_msg_01_1"]
    assert [r.synthesized_id for r in results] == [False, True]
    replayed: Any = assistant_messages(msg, "anthropic")[0]["content"]
    assert [b["id"] for b in replayed] == ["toolu_1", "toolwire_msg_01_1"]
    answered: Any = tool_result_messages(results, "anthropic")[0]["content"]
    assert [b["tool_use_id"] for b in answered] == ["toolu_1", "toolwire_msg_01_1"]


@pytest.mark.parametrize("stop_reason", ["max_tokens", "model_context_window_exceeded"])
def test_the_last_tool_use_of_a_cut_turn_is_truncated(stop_reason: str) -> None:
    """Complete calls of a cut turn run; the tool_use being written when it stopped gets a
    "truncated" failure with is_error."""
    msg = message(
        tool_use("toolu_1", "get_time", city="Oslo"),
        tool_use("toolu_2", "get_weather", city="Os"),
        stop_reason=stop_reason,
    )
    results = group.run_tool_calls(msg, None)
    assert [(r.call_id, r.fail_reason) for r in results] == [
        ("toolu_1", None),
        ("toolu_2", "truncated"),
    ]
    assert tool_result_messages(results, "anthropic") == snapshot(
        [
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Oslo: 12:00"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_2",
                        "content": "The call to 'get_weather' was cut off before its arguments were complete (the response stopped early, at the output length limit or a content filter), so it was not run. If its arguments were long, call it again with shorter ones (for example, split the work into several smaller calls).",
                        "is_error": True,
                    },
                ],
            }
        ]
    )
    assert turn_status(msg, "anthropic") == "truncated"


def test_a_tool_use_followed_by_another_block_was_not_cut() -> None:
    """In a cut turn, a tool_use with a block after it was complete: only the block being
    written when the limit hit was cut (the same rule the stream applies)."""
    msg = message(
        tool_use("toolu_1", "get_time", city="Oslo"),
        {"type": "text", "text": "And now the wea"},
        stop_reason="max_tokens",
    )
    assert [r.fail_reason for r in group.run_tool_calls(msg, None)] == [None]


def test_invalid_json_input_fails_as_invalid_arguments() -> None:
    """Anthropic's `{"INVALID_JSON": text}` wrapper reads back as the text, which fails."""
    msg = message(
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "get_time",
            "input": {"INVALID_JSON": '{"city": "Os'},
        }
    )
    (result,) = group.run_tool_calls(msg, None)
    assert result.fail_reason == "invalid_arguments"
    assert "JSON" in result.result_content


def test_a_user_message_is_not_a_turn() -> None:
    """Passing a user message where a Message belongs says what to pass."""
    with pytest.raises(ToolwireError, match="Expected an Anthropic Message"):
        assistant_messages({"role": "user", "content": "hi", "stop_reason": None}, "anthropic")


# -- history out -----------------------------------------------------------------------


def test_assistant_turn_keeps_every_block_in_order() -> None:
    """Thinking (signature byte-exact), redacted thinking, text with citations, server blocks
    and tool_use come back in order, with only keys the param types define."""
    citation = {
        "type": "char_location",
        "cited_text": "Oslo is cold",
        "document_index": 0,
        "document_title": "Notes",
        "start_char_index": 0,
        "end_char_index": 12,
        "file_id": "file_1",
    }
    msg = message(
        THINKING,
        REDACTED,
        {"type": "text", "text": "Per the notes,", "citations": [citation]},
        {"type": "text", "text": "I'll check.", "citations": None},
        {
            "type": "server_tool_use",
            "id": "srvtoolu_1",
            "name": "web_search",
            "input": {"query": "oslo"},
            "caller": {"type": "direct"},
        },
        {
            "type": "web_search_tool_result",
            "tool_use_id": "srvtoolu_1",
            "content": [
                {
                    "type": "web_search_result",
                    "title": "Oslo",
                    "url": "https://oslo.example",
                    "encrypted_content": "ZW5j",
                    "page_age": None,
                }
            ],
        },
        {
            **tool_use("toolu_1", "get_time", city="Oslo", note=None),
            "caller": {"type": "direct"},
            "toolset_name": None,
        },
    )
    replayed = assistant_messages(msg, "anthropic")
    assert replayed == snapshot(
        [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": "Weather first.",
                        "signature": "c2lnbmF0dXJl+/==",
                    },
                    {"type": "redacted_thinking", "data": "RW5jcnlwdGVk\nZGF0YQ=="},
                    {
                        "type": "text",
                        "text": "Per the notes,",
                        "citations": [
                            {
                                "cited_text": "Oslo is cold",
                                "document_index": 0,
                                "document_title": "Notes",
                                "end_char_index": 12,
                                "start_char_index": 0,
                                "type": "char_location",
                            }
                        ],
                    },
                    {"type": "text", "text": "I'll check."},
                    {
                        "id": "srvtoolu_1",
                        "caller": {"type": "direct"},
                        "input": {"query": "oslo"},
                        "name": "web_search",
                        "type": "server_tool_use",
                    },
                    {
                        "content": [
                            {
                                "encrypted_content": "ZW5j",
                                "title": "Oslo",
                                "type": "web_search_result",
                                "url": "https://oslo.example",
                            }
                        ],
                        "tool_use_id": "srvtoolu_1",
                        "type": "web_search_tool_result",
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "get_time",
                        "input": {"city": "Oslo", "note": None},
                        "caller": {"type": "direct"},
                    },
                ],
            }
        ]
    )
    assert undefined_keys(replayed[0], MessageParam) == []
    assert assistant_messages(msg.model_dump(), "anthropic") == replayed
    assert assistant_messages(BetaMessage.model_validate(msg.model_dump()), "anthropic") == replayed


def test_parsed_message_leaves_parsed_output_out() -> None:
    """A ParsedMessage's text blocks replay without `parsed_output`."""
    msg = ParsedMessage[dict[str, int]].model_validate(
        message(
            {"type": "text", "text": '{"a": 1}', "parsed_output": {"a": 1}}, stop_reason="end_turn"
        ).model_dump()
    )
    assert assistant_messages(msg, "anthropic") == [
        {"role": "assistant", "content": [{"type": "text", "text": '{"a": 1}'}]}
    ]


def test_an_empty_turn_replays_as_nothing() -> None:
    """A turn with no content adds no message: the API rejects an empty assistant message."""
    assert assistant_messages(message(stop_reason="end_turn"), "anthropic") == []


def test_results_are_one_user_message_in_call_order() -> None:
    """Every tool_result in one user message, in call order, is_error only on failures."""
    msg = message(
        tool_use("toolu_1", "get_time", city="Oslo"),
        tool_use("toolu_2", "nope"),
        tool_use("toolu_3", "get_weather"),
    )
    results = group.run_tool_calls(msg, None)
    (sent,) = tool_result_messages(results, "anthropic")
    content: Any = sent["content"]
    assert sent["role"] == "user"
    assert [(b["tool_use_id"], b.get("is_error")) for b in content] == [
        ("toolu_1", None),
        ("toolu_2", True),
        ("toolu_3", True),
    ]
    assert [r.tool_result_block for r in results] == content
    assert undefined_keys(sent, MessageParam) == []
    assert tool_result_messages([], "anthropic") == []


# -- turns -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stop_reason", "status"),
    [
        ("tool_use", "tool_calls"),
        ("end_turn", "done"),
        ("stop_sequence", "done"),
        ("max_tokens", "truncated"),
        ("model_context_window_exceeded", "truncated"),
        ("pause_turn", "paused"),
        ("refusal", "refused"),
    ],
)
def test_turn_status(stop_reason: str, status: str) -> None:
    """Each stop reason maps to its neutral status."""
    assert turn_status(message(stop_reason=stop_reason), "anthropic") == status


def test_turn_status_of_a_message_param_reads_its_content() -> None:
    """A message without a stop reason (an assistant param) is judged by its blocks."""
    with_call: dict[str, Any] = {
        "role": "assistant",
        "content": [tool_use("toolu_1", "get_time", city="A")],
    }
    assert turn_status(with_call, "anthropic") == "tool_calls"
    assert turn_status({"role": "assistant", "content": "Hi"}, "anthropic") == "done"


# -- the SDK's own definitions ---------------------------------------------------------


def _param_keys(union: Any) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    stack = [union]
    while stack:
        item = stack.pop()
        if typing.get_origin(item) in (typing.Union, typing_extensions.Annotated):
            stack += typing.get_args(item)
        elif typing_extensions.is_typeddict(item):
            hints = typing.get_type_hints(item, include_extras=True)
            literal = typing.get_args(typing.get_args(hints["type"])[0])
            found[literal[0]] = frozenset(hints)
    return found


def test_param_key_table_matches_the_sdk() -> None:
    """Each block type's keys are exactly those of its param TypedDict (GA and beta)."""
    ga, beta = _param_keys(ContentBlockParam), _param_keys(BetaContentBlockParam)
    for kind, keys in PARAM_KEYS.items():
        assert keys == beta[kind], kind
        if kind in ga:
            assert keys == ga[kind], kind
    user_only = {"tool_result", "image", "document", "search_result"}
    assert set(beta) - set(PARAM_KEYS) == user_only


def test_importing_the_adapter_imports_no_sdk() -> None:
    """Reading dicts must not need the SDK: the adapter imports `anthropic` lazily."""
    code = (
        "import sys, toolwire._adapters.anthropic.adapter, toolwire.testing._anthropic.fake\n"
        "assert 'anthropic' not in sys.modules, 'anthropic imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
