"""Arguments past the limits stay failures all the way through (issue 7).

Dispatch turns arguments that are too big or too deep into an `invalid_arguments`
failure. These tests follow such arguments everywhere else they travel: cut turns,
every API's stream, the replayed assistant turn, `check_history`, copies, and the
failure text, none of which may recurse on them, raise, or print them whole.
"""

from __future__ import annotations

import base64
from typing import Any, cast

import pytest
from google.genai import types
from inline_snapshot import snapshot

from tests.helpers import chat_completion
from tests.test_anthropic_stream import EVENTS, end, start, tool_block
from tests.test_chat_stream import args, call_start, chunk
from tests.test_gemini_stream import chunk as gemini_chunk
from tests.test_responses_support import function_call, response_json, sdk_events, sse_text
from toolwire._json import copy_json
from toolwire.core import (
    ArgumentLimits,
    BaseCustomToolModel,
    BaseFunctionToolModel,
    StandardToolCall,
    ToolCallCompleted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolwireError
from toolwire.testing import check_history
from toolwire.testing._gemini.history import gemini_signature_key

DEPTH = 100_000
"""Far past the depth limit (64) and Python's recursion limit (1,000)."""
DICT_DEPTH = 20_000
"""The same for dicts, which cost more to build and walk."""
TOO_DEEP = "nested deeper than the limit of 64 levels"


class echo(BaseFunctionToolModel[None, None]):
    """Say it back."""

    text: str = ""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.text, None


group = ToolGroup.from_list([echo])


def deep_dict(depth: int) -> dict[str, Any]:
    """`{"a": {"a": ...}}`, `depth` levels, built without recursion."""
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth - 1):
        node["a"] = {}
        node = node["a"]
    return root


def cyclic_dict() -> dict[str, Any]:
    data: dict[str, Any] = {"text": "x"}
    data["self"] = data
    return data


def depth_of(value: Any) -> int:
    """How deep dicts and lists nest in `value`, counted without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        items: list[Any]
        if isinstance(node, dict):
            items = list(cast("dict[Any, Any]", node).values())
        elif isinstance(node, list):
            items = cast("list[Any]", node)
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((item, depth + 1) for item in items)
    return deepest


def deep_text(depth: int, closed: bool = True) -> str:
    return '{"text": ' + "[" * depth + ("]" * depth + "}" if closed else "")


# -- copies ---------------------------------------------------------------------------------


def test_copy_json_copies_deep_cyclic_and_shared_trees_without_recursion() -> None:
    """copy_json copies 100,000 levels, keeps a cycle a cycle and shared parts shared."""
    deep = deep_dict(DEPTH)
    copied = copy_json(deep)
    assert copied is not deep and copied["a"] is not deep["a"]
    assert depth_of(copied) == DEPTH
    cyclic = cyclic_dict()
    copied_cycle = copy_json(cyclic)
    assert copied_cycle is not cyclic and copied_cycle["self"] is copied_cycle
    shared = [1, {"b": 2}]
    copied_shared = copy_json({"x": shared, "y": shared})
    assert copied_shared["x"] is copied_shared["y"] and copied_shared["x"] is not shared
    schema = {"type": "object", "properties": {"a": {"enum": [1, "b", None]}}, "required": ["a"]}
    assert copy_json(schema) == schema


# -- cut turns and streams ----------------------------------------------------------------


def test_cut_chat_turn_with_deep_arguments_fails_at_the_depth_limit() -> None:
    """In a cut chat turn, text too deep for json.loads is not 'cut': it is too deep."""
    completion = chat_completion(
        ("echo", deep_text(DEPTH, closed=False)),
        ("echo", deep_text(DEPTH)),
        ("echo", '{"text": "ok"}'),
        finish_reason="length",
    )
    results = group.run_tool_calls(completion, None)
    assert [r.fail_reason for r in results] == ["invalid_arguments", "invalid_arguments", None]
    assert all(TOO_DEEP in r.result_content for r in results[:2])


@pytest.mark.parametrize("finish", ["length", "tool_calls"])
def test_chat_stream_with_deep_arguments(finish: str) -> None:
    """A chat stream of 100,000-deep arguments ends the call (cut turn or not) and the final
    completion dispatches to a depth failure."""
    text = deep_text(DEPTH, closed=False)
    stream = ToolCallStream("chat.completions")
    events = stream.feed(chunk(call_start(0, "call_1", "echo")))
    for start_at in range(0, len(text), 4096):
        events += stream.feed(chunk(args(0, text[start_at : start_at + 4096])))
    events += stream.feed(chunk({}, finish=finish))
    (ended,) = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
    assert isinstance(ended, ToolCallCompleted)
    (result,) = group.run_tool_calls(stream.final_response(), None)
    assert result.fail_reason == "invalid_arguments" and TOO_DEEP in result.result_content


def test_anthropic_stream_keeps_too_deep_input_as_text() -> None:
    """Complete input too deep for json.loads stays text (Anthropic's INVALID_JSON wrapper),
    fails at the depth limit, and the turn replays into a valid history."""
    text = deep_text(DEPTH)
    pieces = [text[i : i + 4096] for i in range(0, len(text), 4096)]
    stream = ToolCallStream("anthropic")
    events = [
        event
        for item in [start(), *tool_block(0, "toolu_1", "echo", *pieces), *end("tool_use")]
        for event in stream.feed(EVENTS.validate_python(item))
    ]
    (completed,) = [e for e in events if isinstance(e, ToolCallCompleted)]
    assert completed.call.input == text
    message = stream.final_response()
    assert message.content[0].model_dump()["input"] == {"INVALID_JSON": text}
    results = group.run_tool_calls(message, None)
    assert [r.fail_reason for r in results] == ["invalid_arguments"]
    history = [
        {"role": "user", "content": "Go."},
        *assistant_messages(message, "anthropic"),
        *tool_result_messages(results, "anthropic"),
    ]
    assert check_history(history, "anthropic") == []


def test_responses_stream_with_deep_arguments() -> None:
    """A Responses stream of 100,000-deep arguments completes and fails at the depth limit."""
    text = deep_text(DEPTH)
    item = function_call(name="echo", arguments=text)
    streamed = [
        {"type": "response.created", "response": {**response_json(), "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**item, "arguments": "", "status": "in_progress"},
        },
        *[
            {
                "type": "response.function_call_arguments.delta",
                "output_index": 0,
                "item_id": "fc_1",
                "delta": text[i : i + 4096],
            }
            for i in range(0, len(text), 4096)
        ],
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": response_json(item)},
    ]
    stream = ToolCallStream("responses")
    events = [e for raw in sdk_events(sse_text(streamed)) for e in stream.feed(raw)]
    assert [type(e).__name__ for e in events if isinstance(e, ToolCallCompleted)] == [
        "ToolCallCompleted"
    ]
    (result,) = group.run_tool_calls(stream.final_response(), None)
    assert result.fail_reason == "invalid_arguments" and TOO_DEEP in result.result_content


def test_gemini_stream_copies_deep_arguments_without_recursion() -> None:
    """The final response of a Gemini stream holds a copy of 20,000-deep arguments."""
    deep = deep_dict(DICT_DEPTH)
    stream = ToolCallStream("gemini")
    stream.feed(gemini_chunk({"functionCall": {"name": "echo", "args": deep}}))
    stream.feed(gemini_chunk({"text": ""}, finish="STOP"))
    final = stream.final_response()
    (call,) = final.function_calls or []
    assert call.args is not None and call.args is not deep
    assert depth_of(call.args) == DICT_DEPTH
    (result,) = group.run_tool_calls(final, None)
    assert result.fail_reason == "invalid_arguments" and TOO_DEEP in result.result_content


# -- replay and history checks ------------------------------------------------------------


def anthropic_turn(*inputs: Any) -> dict[str, Any]:
    blocks = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": "echo", "input": value}
        for i, value in enumerate(inputs)
    ]
    return {"id": "msg_1", "role": "assistant", "content": blocks, "stop_reason": "tool_use"}


def test_anthropic_replay_copies_deep_and_cyclic_input() -> None:
    """assistant_messages copies deep and cyclic tool input without recursing."""
    deep, cyclic = deep_dict(DICT_DEPTH), cyclic_dict()
    (replayed,) = assistant_messages(anthropic_turn(deep, cyclic), "anthropic")
    content: list[Any] = list(replayed["content"])
    assert content[0]["input"] is not deep and depth_of(content[0]["input"]) == DICT_DEPTH
    assert content[1]["input"]["self"] is content[1]["input"]


def test_anthropic_replay_drops_unknown_keys_unread() -> None:
    """Keys a block's param type does not define are dropped before anything reads them."""
    block = {"type": "tool_use", "id": "t", "name": "echo", "input": {}, "x": deep_dict(DICT_DEPTH)}
    text = {"type": "text", "text": "hi", "x": deep_dict(DICT_DEPTH)}
    message = {"role": "assistant", "content": [text, block]}
    assert assistant_messages(message, "anthropic") == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "tool_use", "id": "t", "name": "echo", "input": {}},
            ],
        }
    ]


def test_responses_replay_of_a_dict_item_with_a_deep_extra_key() -> None:
    """A Responses dict item's unknown deep key is copied without recursion and dropped."""
    item = {**function_call(name="echo"), "x": deep_dict(DICT_DEPTH)}
    (replayed,) = assistant_messages({"id": "r", "output": [item]}, "responses")
    assert "x" not in replayed


@pytest.mark.parametrize("as_dict", [False, True], ids=["sdk", "dict"])
def test_check_history_walks_deep_and_cyclic_gemini_arguments(as_dict: bool) -> None:
    """check_history reads a Gemini history holding 20,000-deep and cyclic arguments."""
    signature = base64.b64encode(b"sig").decode()
    parts = [
        {
            "functionCall": {"name": "echo", "args": deep_dict(DICT_DEPTH)},
            "thoughtSignature": signature,
        },
        {"functionCall": {"name": "echo", "args": cyclic_dict()}},
    ]
    wire = {"responseId": "r", "candidates": [{"content": {"role": "model", "parts": parts}}]}
    response: Any = wire if as_dict else types.GenerateContentResponse.model_validate(wire)
    results = group.run_tool_calls(response, None)
    assert [r.fail_reason for r in results] == ["invalid_arguments", "invalid_arguments"]
    history = [
        {"role": "user", "parts": [{"text": "Go."}]},
        *assistant_messages(response, "gemini"),
        *tool_result_messages(results, "gemini"),
    ]
    assert check_history(history, "gemini") == []


def test_check_history_walks_deep_and_cyclic_anthropic_input() -> None:
    """check_history reads an Anthropic history holding deep and cyclic input, as given."""
    message: Any = anthropic_turn(deep_dict(DICT_DEPTH), cyclic_dict())
    results = group.run_tool_calls(message, None)
    history = [
        {"role": "user", "content": "Go."},
        message,
        *tool_result_messages(results, "anthropic"),
    ]
    assert check_history(history, "anthropic") == []


def test_gemini_signature_key_of_arguments_that_are_not_json() -> None:
    """Arguments too deep, cyclic or not JSON get a key no signed call has, without raising."""
    keys = [
        gemini_signature_key({"name": "f", "args": args})
        for args in ({"b": 1, "a": [2]}, deep_dict(500), cyclic_dict(), {"b": b"x"}, None)
    ]
    assert keys == snapshot(
        [
            'f:{"a":[2],"b":1}',
            "f:(arguments nested too deep to compare)",
            "f:(arguments nested too deep to compare)",
            "f:(arguments that are not JSON)",
            "f:{}",
        ]
    )


# -- limits and failure texts --------------------------------------------------------------


def test_size_limit_on_dicts() -> None:
    """Dict arguments over max_chars fail, however the size is made up."""
    limits = ArgumentLimits(max_chars=1000)
    for arguments in (
        {"text": "x" * 2000},
        {f"key_{i}": i for i in range(500)},
        {"text": "x", "items": [[1, 2]] * 400},
    ):
        call = StandardToolCall("function", "c", "echo", arguments)
        result = group.run_tool_call(call, None, limits=limits)
        assert result.result_content == snapshot(
            "The arguments for 'echo' were rejected: the arguments are larger than the limit of 1,000 characters. Call it again with smaller, flatter arguments."
        )
    fits = StandardToolCall("function", "c", "echo", {"text": "x" * 900})
    assert group.run_tool_call(fits, None, limits=limits).fail_reason is None


class shout(BaseCustomToolModel[None, None]):
    """Say the free text back."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.input, None


def test_size_limit_at_its_boundary() -> None:
    """Exactly `max_chars` characters are accepted and one more refused: a custom tool's
    free-text input, and JSON text arguments (the same limit, counted the same way)."""
    limits = ArgumentLimits(max_chars=100)
    tools = ToolGroup.from_list([echo, shout])
    outcomes: list[str | None] = []
    for size in (100, 101):
        custom = StandardToolCall("custom", "c1", "shout", "x" * size)
        text = '{"text": "' + "x" * (size - 12) + '"}'
        assert len(text) == size
        function = StandardToolCall("function", "c2", "echo", text)
        for result in tools.run_tool_calls([custom, function], None, limits=limits):
            outcomes.append(result.fail_reason)
            if result.fail_reason is None:
                assert len(result.result_content) in (size, size - 12)
    assert outcomes == [None, None, "invalid_arguments", "invalid_arguments"]
    over = tools.run_tool_call(
        StandardToolCall("custom", "c", "shout", "x" * 101), None, limits=limits
    )
    assert over.result_content == snapshot(
        "The arguments for 'shout' were rejected: the input is 101 characters long; the limit is 100. Call it again with smaller, flatter arguments."
    )


def test_huge_integers_are_described_not_printed() -> None:
    """An int too long for str() in dict arguments is described in the failure text."""
    call = StandardToolCall("function", "c", "echo", {"text": 10**5000})
    assert group.run_tool_call(call, None).result_content == snapshot(
        """\
Invalid arguments for 'echo': 1 error. Fix them and call the tool again.
- text: Input should be a valid string (got an integer of about 5,001 digits)\
"""
    )


def test_a_dict_that_is_not_a_chat_call_is_named_without_recursion() -> None:
    """The error for a dict that is not a chat call shows it briefly, however deep it is."""
    item = {"id": "x", "type": "function", "args": deep_dict(DEPTH)}
    with pytest.raises(
        ToolwireError, match=r"Not a Chat Completions tool call: \{.*\.\.\."
    ) as error:
        group.run_tool_calls([item], None, api="chat.completions")
    assert len(str(error.value)) < 300


class _Word(BaseFunctionToolModel[None, None]):
    """Say the word."""

    word: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.word, None


@pytest.mark.parametrize("key", [1, None, 2.5, ("a",)], ids=repr)
def test_dict_arguments_with_a_key_that_is_not_text_are_answered(key: object) -> None:
    """Hand-built dict arguments may have keys JSON never has: the limit check walks them
    (it used to take the length of every key and crash), and each call gets its result."""
    group = ToolGroup.from_list([_Word])
    arguments: dict[Any, Any] = {"word": "hi", key: "x"}
    call = StandardToolCall("function", "c1", "_Word", arguments)
    assert [(r.call_id, r.result_content) for r in group.run_tool_calls([call, call], None)] == [
        ("c1", "hi"),
        ("c1", "hi"),
    ]
    assert group.run_tool_call(call, None).result_content == "hi"
