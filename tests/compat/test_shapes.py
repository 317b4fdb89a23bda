"""Every recorded shape of OpenAI-compatible servers (`tests/compat/shapes`) through
today's toolwire, as a user's loop meets it: the real `openai` client reads the shape,
`group.run_tool_calls` dispatches (streams first folded by `ToolCallStream`), and
`assistant_messages` plus `tool_result_messages` build the next turn, which the client
serializes as it would send it. What each test holds a shape to is in its `expect`
(README.md): the calls dispatched with the right names and arguments, a next turn
carrying what that server needs back, a text-written call not read as a finished turn,
and errors the SDK raises before toolwire is involved.

`KNOWN` lists what toolwire gets wrong today; each entry marks its case
`xfail(strict=True)`, with the exception the failure raises. Fixing one makes its case
pass, and strict xfail then asks for the entry to go.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast
from unittest.mock import ANY

import openai
import pytest
from _pytest.mark.structures import ParameterSet
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from tests.compat.shapes import (
    EVIDENCE,
    KINDS,
    SHAPES_DIR,
    Shape,
    all_shapes,
    chunks,
    completion,
    shapes_where,
    wire_body,
)
from toolwire.core import (
    BaseFunctionToolModel,
    StreamEvent,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import StreamIncompleteError

API = "chat.completions"


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return json.dumps(self.model_dump()), None


class get_time(BaseFunctionToolModel[None, None]):
    """Get the time in a time zone."""

    tz: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return json.dumps(self.model_dump()), None


GROUP = ToolGroup.from_list([get_weather, get_time])
"""Each handler answers with the arguments it ran with, as JSON."""

_DROPS_REASONING_CONTENT = (
    "assistant_messages leaves out reasoning_content, which this server answers with a 400 "
    "on the next turn"
)
KNOWN: dict[tuple[str, str], tuple[str, type[BaseException]]] = {
    ("replay", "deepseek/nonstream_reasoning_tool_calls"): (
        _DROPS_REASONING_CONTENT,
        AssertionError,
    ),
    ("replay", "deepseek/stream_reasoning_tool_call"): (
        "final_response() keeps reasoning_content (an extra field of the message), but "
        "assistant_messages leaves it out; DeepSeek answers 400 on the next turn",
        AssertionError,
    ),
    ("replay", "gemini_openai/nonstream_thought_signatures"): (
        "assistant_messages leaves out each call's extra_content (its thought signature); "
        "Gemini 3 answers 400 on the next turn",
        AssertionError,
    ),
    ("replay", "gemini_openai/stream_thought_signature"): (
        "assistant_messages leaves out the call's extra_content (its thought signature)",
        AssertionError,
    ),
    ("replay", "kimi/nonstream_reasoning_tool_call"): (_DROPS_REASONING_CONTENT, AssertionError),
    ("replay", "llamacpp/nonstream_object_arguments"): (
        "the call runs, but assistant_messages replays the arguments as the object the "
        "server sent, not as JSON text",
        AssertionError,
    ),
    ("replay", "minimax/nonstream_reasoning_details_tool_call"): (
        "assistant_messages leaves out reasoning_details, which MiniMax needs back",
        AssertionError,
    ),
    ("replay", "openrouter/nonstream_reasoning_details_tool_call"): (
        "assistant_messages leaves out reasoning_details (and reasoning)",
        AssertionError,
    ),
    ("replay", "openrouter/stream_reasoning_details_tool_call"): (
        "assistant_messages leaves out reasoning_details",
        AssertionError,
    ),
    ("turn_status", "text/glm_tool_call_in_content"): (
        "turn_status says 'done': the call written in content is neither run nor flagged",
        AssertionError,
    ),
    ("turn_status", "text/hermes_tool_call_in_content"): (
        "turn_status says 'done': the call written in content is neither run nor flagged",
        AssertionError,
    ),
}
"""(test, shape id) -> (what goes wrong today, the exception the case fails with)."""


def cases(test: str, shapes: list[Shape]) -> list[ParameterSet]:
    """One parameter per shape, marked with its `KNOWN` failure for `test` if any."""
    params: list[ParameterSet] = []
    for shape in shapes:
        known = KNOWN.get((test, shape.id))
        marks = (
            ()
            if known is None
            else pytest.mark.xfail(strict=True, reason=known[0], raises=known[1])
        )
        params.append(pytest.param(shape, id=shape.id, marks=marks))
    return params


WITH_CALLS = shapes_where("response", "calls") + shapes_where("stream", "calls")
"""The shapes whose turn holds calls (or, with `calls: []`, deliberately none)."""


def turn(shape: Shape) -> ChatCompletion:
    """The shape's turn as the loop holds it: the client's completion, or the stream's
    chunks fed one by one to `ToolCallStream` and its `final_response()`."""
    if shape.kind == "response":
        return completion(shape)
    stream = ToolCallStream(API)
    for chunk in chunks(shape):
        stream.feed(chunk)
    return stream.final_response()


def parsed(arguments: object) -> object:
    """JSON text as the value it holds; anything else (an object, broken or glued text)
    as it is, so a mismatch shows what was received or would be sent."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def expected_calls(shape: Shape) -> list[dict[str, Any]]:
    """The shape's expected calls; a call the server sent without an id matches any id."""
    return [call if "id" in call else {"id": ANY, **call} for call in shape.expect["calls"]]


def outcome(result: ToolCallResult[Any]) -> dict[str, Any]:
    """A result in the form of an expected call: the arguments its handler ran with
    (each handler answers with them), or the failure."""
    if result.fail_reason is None:
        ran = {"arguments": json.loads(result.result_content)}
    else:
        ran = {"failed": f"{result.fail_reason}: {result.result_content}"}
    return {"id": result.call_id, "name": result.name, **ran}


@pytest.mark.parametrize("shape", cases("dispatch", WITH_CALLS))
def test_dispatch(shape: Shape) -> None:
    """The calls run with the names and arguments the model sent, in order, and
    nothing but the calls (a text answer stays text)."""
    response = turn(shape)
    results = GROUP.run_tool_calls(response, None)
    assert [outcome(r) for r in results] == expected_calls(shape)
    if "text" in shape.expect:
        assert response.choices[0].message.content == shape.expect["text"]


@pytest.mark.parametrize("shape", cases("events", shapes_where("stream", "calls")))
def test_stream_events(shape: Shape) -> None:
    """The events a loop acts on during the stream: each call reported complete once,
    with its name and arguments, and one `TurnEnded`, the last event."""
    stream = ToolCallStream(API)
    events: list[StreamEvent] = []
    for chunk in chunks(shape):
        events.extend(stream.feed(chunk))
    completed = [
        {"id": e.call.id, "name": e.call.name, "arguments": parsed(e.call.input)}
        for e in events
        if isinstance(e, ToolCallCompleted)
    ]
    assert completed == expected_calls(shape)
    ends = [e for e in events if isinstance(e, TurnEnded)]
    assert ends == events[-1:], ends


@pytest.mark.parametrize("shape", cases("replay", [s for s in WITH_CALLS if s.expect["calls"]]))
def test_replay(shape: Shape) -> None:
    """The next request, as the client sends it, carries the turn the server needs back:
    each call with its id and its arguments as JSON text, what the server's `next_turn`
    requires (reasoning fields, per-call `extra_content`, a string content, its id rule),
    and one tool message per call, answering the same ids."""
    response = turn(shape)
    results = GROUP.run_tool_calls(response, None)
    history: list[ChatCompletionMessageParam] = [
        *assistant_messages(response, API),
        *tool_result_messages(results, API),
    ]
    messages: list[dict[str, Any]] = wire_body(history)["messages"][1:]
    assistant, answers = messages[0], messages[1:]
    calls: list[dict[str, Any]] = assistant["tool_calls"]

    arguments = [c["function"]["arguments"] for c in calls]
    assert all(isinstance(text, str) for text in arguments), arguments
    replayed = [
        {
            "id": c["id"],
            "name": c["function"]["name"],
            "arguments": parsed(c["function"]["arguments"]),
        }
        for c in calls
    ]
    assert replayed == expected_calls(shape)
    assert [m["tool_call_id"] for m in answers] == [c["id"] for c in calls]

    for key, value in shape.expect.get("assistant", {}).items():
        assert assistant.get(key) == value, f"the replayed turn's {key!r}"
    if "assistant_calls" in shape.expect:
        extras: list[dict[str, Any]] = shape.expect["assistant_calls"]
        kept = [{key: c.get(key) for key in extra} for c, extra in zip(calls, extras, strict=True)]
        assert kept == extras
    if shape.expect.get("content") == "string":
        assert isinstance(assistant.get("content"), str), assistant.get("content")
    if "id_pattern" in shape.expect:
        ids = [c["id"] for c in calls] + [m["tool_call_id"] for m in answers]
        assert [i for i in ids if not re.fullmatch(shape.expect["id_pattern"], i)] == []


@pytest.mark.parametrize("shape", cases("turn_status", shapes_where("response", "written_as_text")))
def test_text_written_call_is_not_a_finished_turn(shape: Shape) -> None:
    """Content that holds a call in a known text format, with no `tool_calls`, must not
    read as a finished answer: the loop would end with the call never run."""
    assert turn_status(completion(shape), API) != "done"


def seen_error(error: openai.APIError, expected: Mapping[str, Any]) -> dict[str, Any]:
    """The SDK's exception in the form of an expected `sdk_error`: its class, the error
    code, the model's failed generation from the body, and the HTTP status if expected."""
    body: object = error.body
    fields = cast("dict[str, Any]", body) if isinstance(body, dict) else {}
    seen = {
        "type": type(error).__name__,
        "code": error.code,
        "failed_generation": fields.get("failed_generation"),
    }
    if "status" in expected:
        seen["status"] = getattr(error, "status_code", None)
    return seen


@pytest.mark.parametrize("shape", cases("sdk_error", shapes_where("error", "sdk_error")))
def test_error_body_reaches_the_loop(shape: Shape) -> None:
    """A refused generation comes as the SDK's `BadRequestError`, its body holding what
    the model wrote; no completion reaches toolwire."""
    with pytest.raises(openai.APIError) as raised:
        completion(shape)
    assert seen_error(raised.value, shape.expect["sdk_error"]) == shape.expect["sdk_error"]


@pytest.mark.parametrize("shape", cases("sdk_error", shapes_where("stream", "sdk_error")))
def test_stream_error_leaves_no_response(shape: Shape) -> None:
    """An error event mid-stream is raised by the SDK's iterator (with the body); the
    chunks fed before it are no response, and `final_response()` says so."""
    stream = ToolCallStream(API)
    with pytest.raises(openai.APIError) as raised:
        for chunk in chunks(shape):
            stream.feed(chunk)
    assert seen_error(raised.value, shape.expect["sdk_error"]) == shape.expect["sdk_error"]
    with pytest.raises(StreamIncompleteError):
        stream.final_response()


def test_every_shape_says_where_it_comes_from() -> None:
    """Each shape names its server and the public evidence of its exact form, holds the
    body of its kind, is checked by at least one test above, and sits where the loader
    finds it."""
    problems: list[str] = []
    for shape in all_shapes():
        data, source = shape.data, shape.data.get("source", {})
        if not (data.get("server") and data.get("title") and data.get("kind") in KINDS):
            problems.append(f"{shape.id}: server, title and a kind of {KINDS} are required")
        if not (str(source.get("url", "")).startswith("https://") and source.get("what")):
            problems.append(f"{shape.id}: source needs an https url and what it shows")
        if source.get("evidence") not in EVIDENCE:
            problems.append(f"{shape.id}: source.evidence must be one of {sorted(EVIDENCE)}")
        for refusal in data.get("next_turn", {}).get("refused", []):
            if not (refusal.get("status") and "body" in refusal and refusal.get("source")):
                problems.append(f"{shape.id}: a refusal needs its status, body and source")
        body_key = "sse" if shape.kind == "stream" else "response"
        if body_key not in data:
            problems.append(f"{shape.id}: a {shape.kind} shape holds {body_key!r}")
        if not {"calls", "written_as_text", "sdk_error"} & set(data.get("expect", {})):
            problems.append(f"{shape.id}: expect has none of calls, written_as_text, sdk_error")
    assert problems == []
    files = sorted(SHAPES_DIR.rglob("*.json"))
    assert len(all_shapes()) == len(files) > 0, "a shape file outside shapes/<server>/"
