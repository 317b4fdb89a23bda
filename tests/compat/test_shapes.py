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
    FIRST_TURN,
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
    ChatServer,
    StreamEvent,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    failed_generation,
    recover_text_calls,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import StreamIncompleteError
from toolwire.testing import FakeOpenAI, FakeReply, check_history

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

KNOWN: dict[tuple[str, str], tuple[str, type[BaseException]]] = {}
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
    read as a finished answer: the loop would end with the call never run. Read with
    `recover_text_calls`, it runs with its arguments, under an id toolwire synthesized,
    and the next turn is one the API accepts."""
    response = completion(shape)
    assert turn_status(response, API) == "calls_in_text"
    recovered = recover_text_calls(response)
    assert turn_status(recovered, API) == "tool_calls"
    results = GROUP.run_tool_calls(recovered, None)
    assert [outcome(r) for r in results] == [{"id": ANY, **shape.expect["written_as_text"]}]
    assert [r.call_id.startswith("toolwire_") for r in results] == [True]
    history = [*assistant_messages(recovered, API), *tool_result_messages(results, API)]
    assert check_history([FIRST_TURN, *history], API) == []
    assert GROUP.run_tool_calls(response, None) == []  # the original is left as it was


SERVERS: dict[str, ChatServer] = {
    "azure": ChatServer.AZURE_OPENAI,
    "deepseek": ChatServer.DEEPSEEK,
    "fireworks": ChatServer.FIREWORKS,
    "gemini_openai": ChatServer.GEMINI_OPENAI,
    "groq": ChatServer.GROQ,
    "kimi": ChatServer.KIMI,
    "llamacpp": ChatServer.LLAMA_CPP,
    "lmstudio": ChatServer.LM_STUDIO,
    "minimax": ChatServer.MINIMAX,
    "mistral": ChatServer.MISTRAL,
    "ollama": ChatServer.OLLAMA,
    "openai": ChatServer.OPENAI,
    "openrouter": ChatServer.OPENROUTER,
    "proxies": ChatServer.OPENAI,
    "sglang": ChatServer.SGLANG,
    "text": ChatServer.OPENAI,
    "vllm": ChatServer.VLLM,
    "zai": ChatServer.ZAI,
}
"""Each shape folder's server profile (gateways and text calls: OpenAI's defaults)."""


def server_of(shape: Shape) -> ChatServer:
    return SERVERS[shape.id.split("/")[0]]


@pytest.mark.parametrize("shape", cases("server", [s for s in WITH_CALLS if s.expect["calls"]]))
def test_the_replay_for_the_servers_profile_is_accepted_by_its_fake(shape: Shape) -> None:
    """Replayed for its server (`api=ChatServer...`), the turn still carries what the
    server needs back, and that server's fake accepts the next request."""
    server = server_of(shape)
    response = turn(shape)
    results = GROUP.run_tool_calls(response, None)
    history = [
        FIRST_TURN,
        *assistant_messages(response, server),
        *tool_result_messages(results, server),
    ]
    assistant = wire_body(history[1:])["messages"][1]
    for key, value in shape.expect.get("assistant", {}).items():
        assert assistant.get(key) == value, f"the replayed turn's {key!r}"
    assert check_history(history, server) == []
    fake = FakeOpenAI(server=server, script=[FakeReply(text="Done.")])
    answer = fake.client().chat.completions.create(model="m", messages=history)
    assert answer.choices[0].message.content == "Done."


REFUSED_BY_THE_FAKE = {
    "ollama/nonstream_tool_call": "null content",
    "ollama/stream_whole_calls": "null content",
    "deepseek/nonstream_reasoning_tool_calls": "no reasoning_content",
    "deepseek/stream_reasoning_tool_call": "no reasoning_content",
    "kimi/nonstream_reasoning_tool_call": "no reasoning_content",
    "mistral/nonstream_nine_char_id": "id turn1_0",
}
"""The shapes whose recorded refusals the fakes answer, and how each is provoked. The
others: Gemini's (a missing thought signature) is provoked from a call the fake sent
(`test_the_gemini_fake_refuses_a_call_without_its_signature`); LM Studio's body for an
empty id is not recorded (the generic fake refuses empty ids)."""


def refused_history(shape: Shape, violation: str) -> list[dict[str, Any]]:
    """The shape's next turn, replayed for its server, then broken as `violation` says,
    with the message before it placed where the recorded body counts it."""
    server = server_of(shape)
    response = turn(shape)
    results = GROUP.run_tool_calls(response, None)
    assistant = cast("dict[str, Any]", assistant_messages(response, server)[0])
    answers = [dict(m) for m in tool_result_messages(results, server)]
    if violation == "null content":
        assistant["content"] = None
    elif violation == "no reasoning_content":
        del assistant["reasoning_content"]
    elif violation == "id turn1_0":
        assistant["tool_calls"][0]["id"] = answers[0]["tool_call_id"] = "turn1_0"
    before: list[dict[str, Any]] = [dict(FIRST_TURN)]
    if shape.id.startswith("kimi/"):  # its body names the message's index: 2
        before.insert(0, {"role": "system", "content": "You check the weather."})
    return [*before, assistant, *answers]


@pytest.mark.parametrize("shape_id", REFUSED_BY_THE_FAKE)
def test_the_servers_fake_refuses_what_the_server_refused(shape_id: str) -> None:
    """What the server answered 400 (its recorded body), its fake answers the same, and
    `check_history` with the server reports it."""
    shape = next(s for s in all_shapes() if s.id == shape_id)
    history = refused_history(shape, REFUSED_BY_THE_FAKE[shape_id])
    refusal = shape.data["next_turn"]["refused"][0]
    fake = FakeOpenAI(server=server_of(shape), script=[FakeReply(text="Done.")])
    with pytest.raises(openai.APIStatusError) as raised:
        fake.client().chat.completions.create(model="m", messages=cast(Any, history))
    assert raised.value.status_code == refusal["status"]
    assert raised.value.response.json() == refusal["body"]
    if REFUSED_BY_THE_FAKE[shape_id] != "no reasoning_content":  # (one turn: no sign of
        assert check_history(history, server_of(shape)) != []  # thinking in the history)


def test_the_gemini_fake_refuses_a_call_without_its_signature() -> None:
    """Gemini's endpoint signs the first call of a turn; the call sent back without its
    `extra_content` gets the recorded 400."""
    shape = next(s for s in all_shapes() if s.id == "gemini_openai/nonstream_thought_signatures")
    fake = FakeOpenAI(server=ChatServer.GEMINI_OPENAI)
    client = fake.client()
    tools = GROUP.tool_definitions(ChatServer.GEMINI_OPENAI)
    response = client.chat.completions.create(model="m", messages=[FIRST_TURN], tools=tools)
    assistant: Any = assistant_messages(response, ChatServer.GEMINI_OPENAI)[0]
    results = GROUP.run_tool_calls(response, None)
    answers = tool_result_messages(results, ChatServer.GEMINI_OPENAI)
    assert "extra_content" in assistant["tool_calls"][0]
    ok = client.chat.completions.create(model="m", messages=[FIRST_TURN, assistant, *answers])
    assert ok.choices[0].message.content
    del assistant["tool_calls"][0]["extra_content"]
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="m", messages=[FIRST_TURN, assistant, *answers])
    refusal = shape.data["next_turn"]["refused"][0]
    assert raised.value.response.json() == refusal["body"]


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
    assert_retry_from(raised.value, shape)


def assert_retry_from(error: openai.APIError, shape: Shape) -> None:
    """`failed_generation` turns the refused generation into a next turn: what the model
    wrote and why it failed, which the API takes."""
    failed = failed_generation(error)
    assert failed is not None
    assert failed.text == shape.expect["sdk_error"]["failed_generation"]
    assert failed.code == "tool_use_failed"
    assert failed.reason in failed.messages[1]["content"]  # type: ignore[operator]
    assert check_history([FIRST_TURN, *failed.messages], API) == []


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
    assert_retry_from(raised.value, shape)


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
