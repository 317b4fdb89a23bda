"""`ToolCallStream("chat.completions").feed` takes a fast path for argument-continuation
chunks (one fragment of choice 0's open call, nothing else). It must fold every stream
exactly as the general path does: each stream here is fed in lockstep to both paths
(`tests.stream_lockstep`), which also shows which chunks the fast path took, so the
comparisons are not vacuous."""

from __future__ import annotations

import json
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any, cast

import httpx2
import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat.chat_completion_chunk import Choice, ChoiceDelta

from tests.shared_data import all_cases, require_shared
from tests.stream_lockstep import Folded, fold_alike
from toolwire._adapters.openai_chat.stream import ChatStreamAccumulator
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply

BASE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def lockstep(items: Iterable[object]) -> Folded:
    """Both paths fold `items` alike (see `tests.stream_lockstep`): the final response (or
    the error it raises), and which items the fast path took."""
    return fold_alike(ChatStreamAccumulator, items)


def sdk_chunks(chunks: list[dict[str, Any]]) -> list[Any]:
    """`chunks` served as SSE to a real OpenAI client: the objects it yields."""
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return sse_items(body)


def sse_items(body: str) -> list[Any]:
    transport = httpx2.MockTransport(
        lambda _: httpx2.Response(200, text=body, headers={"content-type": "text/event-stream"})
    )
    client = OpenAI(api_key="k", http_client=httpx2.Client(transport=transport), max_retries=0)
    return list(client.chat.completions.create(model="m", messages=[], stream=True))


def chunk(delta: dict[str, Any] | None, finish: str | None = None, **more: Any) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {**BASE, "choices": choices, **more}


def choices(*entries: tuple[int, dict[str, Any], str | None]) -> dict[str, Any]:
    """A chunk of several choices: (index, delta, finish_reason) each."""
    return {
        **BASE,
        "choices": [{"index": i, "delta": d, "finish_reason": f} for i, d, f in entries],
    }


def starting(call_id: str | None, name: str, index: int | None = 0) -> dict[str, Any]:
    """The delta that starts a call."""
    fragment: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": ""}}
    if call_id is not None:
        fragment["id"] = call_id
    if index is not None:
        fragment["index"] = index
    return {"tool_calls": [fragment]}


def continuing(text: str, index: int | None = 0, **fragment: Any) -> dict[str, Any]:
    """The delta of an argument fragment (with `fragment` fields added)."""
    tool_call: dict[str, Any] = {"function": {"arguments": text}, **fragment}
    if index is not None:
        tool_call["index"] = index
    return {"tool_calls": [tool_call]}


def start(call_id: str | None, name: str, index: int | None = 0) -> dict[str, Any]:
    return chunk(starting(call_id, name, index))


def more(text: str, index: int | None = 0, **fragment: Any) -> dict[str, Any]:
    """An argument-continuation chunk."""
    return chunk(continuing(text, index, **fragment))


def settled(index: int | None = 0, **fragment: Any) -> list[dict[str, Any]]:
    """Two leading fragments of whitespace: a call's first two fragments go to the general
    path, which reads from them that the call's fragments are appended (not resent
    whole); these let the fragments after them show what the fast path takes."""
    return [more(" ", index, **fragment), more("\n", index, **fragment)]


def settling(call_id: str | None, name: str, index: int | None = 0) -> list[dict[str, Any]]:
    """A call's start, then its `settled` fragments."""
    return [start(call_id, name, index), *settled(index)]


# --- streams as the SDK yields them --------------------------------------------------


def test_a_long_argument_is_folded_by_the_fast_path() -> None:
    """The benchmark's shape: every fragment takes the fast path but the first two, which
    show that the call's fragments are appended (not resent whole) and so go to the
    general path."""
    arguments = json.dumps({"path": "notes.md", "content": "lorem ipsum " * 100})
    parts = [arguments[i : i + 50] for i in range(0, len(arguments), 50)]
    items = sdk_chunks([start("call_1", "write_file"), *map(more, parts), chunk({}, "tool_calls")])
    folded = lockstep(items)
    response: Any = folded.final
    assert response.choices[0].message.tool_calls[0].function.arguments == arguments
    assert folded.taken == len(parts) - 2


def fragments_after_the_first_two(items: list[ChatCompletionChunk]) -> int:
    """How many argument fragments of choice 0's calls come after each call's first two
    non-empty ones: the chunks the fast path takes (the first two show how a call's
    fragments join, and the general path reads them)."""
    counts: dict[object, int] = {}
    taken, current = 0, None
    for item in items:
        for choice in item.choices:
            for fragment in (choice.delta.tool_calls or []) if choice.index == 0 else []:
                if fragment.id and fragment.id != current:
                    current = fragment.id
                arguments = fragment.function.arguments if fragment.function else None
                if arguments:
                    counts[current] = counts.get(current, 0) + 1
                    taken += counts[current] > 2
    return taken


def recorded_chat_streams() -> list[Any]:
    return [
        pytest.param(case, id=case["id"])
        for case in all_cases()
        if case["api"] == "openai-chat" and case["stream"]
    ]


@pytest.mark.parametrize("case", recorded_chat_streams())
def test_recorded_streams_fold_the_same_on_both_paths(case: dict[str, Any]) -> None:
    require_shared()
    items = sse_items(case["response"])
    folded = lockstep(items)
    result: Any = folded.final
    assert result.choices[0].message.tool_calls
    assert folded.taken == fragments_after_the_first_two(items)


def test_the_corpus_has_streamed_chat_cases() -> None:
    require_shared()
    assert len(recorded_chat_streams()) == 21


FAKE_REPLIES = {
    "text": FakeReply(text="Hello there, this is a longer answer in several pieces."),
    "two calls": FakeReply.tool_calls(
        FakeCall("get_weather", {"city": "Paris, the capital of France", "days": 3}),
        FakeCall("get_time", {"tz": "Europe/Paris"}),
    ),
    "text and a call": FakeReply(
        text="Let me check.", calls=(FakeCall("get_weather", {"city": "Oslo"}),)
    ),
    "cut by length": FakeReply(
        calls=(FakeCall("get_weather", '{"city": "Reykjav'),), stop="length"
    ),
    "refusal": FakeReply(text="I cannot help with that request.", stop="refusal"),
}


@pytest.mark.parametrize("reply", FAKE_REPLIES.values(), ids=FAKE_REPLIES.keys())
@pytest.mark.parametrize("usage", [False, True], ids=["no-usage", "with-usage"])
def test_the_fake_servers_streams(reply: FakeReply, usage: bool) -> None:
    client = FakeOpenAI(script=[reply]).client()
    options: Any = {"stream_options": {"include_usage": True}} if usage else {}
    messages: Any = [{"role": "user", "content": "go"}]
    items = list(
        client.chat.completions.create(model="m", messages=messages, stream=True, **options)
    )
    taken = lockstep(items).taken
    assert taken == fragments_after_the_first_two(items)
    assert taken > 0 or not any(len(str(call.arguments)) > 32 for call in reply.calls)


def test_the_sdk_stream_helpers_events() -> None:
    """`client.chat.completions.stream()` yields wrapped chunks and restating events:
    the fast path leaves them all to the general path."""
    reply = FakeReply.tool_calls(FakeCall("get_weather", {"city": "Paris, France, Europe"}))
    client = FakeOpenAI(script=[reply]).client()
    with client.chat.completions.stream(
        model="m", messages=[{"role": "user", "content": "go"}]
    ) as events:
        items = list(events)
    folded = lockstep(items)
    response: Any = folded.final
    assert response.choices[0].message.tool_calls
    assert folded.taken == 0


SERVER_STREAMS: dict[str, tuple[int, list[dict[str, Any]]]] = {
    # name: (how many chunks the fast path takes, the chunks). Each call opens with two
    # `settled` fragments, read by the general path (see `settled`).
    "parallel calls all index 0": (
        3,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": '),
            more('"Paris"}'),
            start("call_b", "get_time"),
            *settled(0),
            more('{"tz": "JST"}'),
            chunk({}, "tool_calls"),
        ],
    ),
    "parallel calls with no index": (
        4,
        [
            start("call_a", "get_weather", None),
            *settled(None),
            more('{"city": ', None),
            more('"Paris"}', None),
            start("call_b", "get_time", None),
            *settled(None),
            more('{"tz": "JST"}', None),
            more("", None),
            chunk({}, "tool_calls"),
        ],
    ),
    "a call without an index then one fragment with index 0": (
        1,
        [
            start("call_a", "get_weather", None),
            *settled(None),
            more('{"city": ', None),
            more('"Paris"}', 0),
            chunk({}, "tool_calls"),
        ],
    ),
    "parallel calls with their own index": (
        3,
        [
            start("call_a", "get_weather", 0),
            *settled(0),
            more('{"city": "Oslo"}', 0),
            start("call_b", "get_time", 1),
            *settled(1),
            more('{"tz": ', 1),
            more('"UTC"}', 1),
            chunk({}, "tool_calls"),
        ],
    ),
    "a repeated id on every fragment": (
        0,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": ', id="call_a"),
            more('"Oslo"}', id="call_a"),
            chunk({}, "tool_calls"),
        ],
    ),
    "an id sent late": (
        2,
        [
            start(None, "get_weather"),
            *settled(0),
            more('{"city": '),
            more('"Oslo"}', id="call_late"),
            more(""),
            chunk({}, "tool_calls"),
        ],
    ),
    "interleaved fragments": (
        1,
        [
            start("call_a", "get_weather", 0),
            *settled(0),
            more('{"city": ', 0),
            start("call_b", "get_time", 1),
            *settled(1),
            more('"Paris"}', 0),
        ],
    ),
    "a fragment after the finish_reason": (
        1,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": "Oslo"}'),
            chunk({}, "tool_calls"),
            more("}"),
        ],
    ),
    "a call after the finish_reason": (
        1,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": "Oslo"}'),
            chunk({}, "tool_calls"),
            start("call_b", "get_time", 1),
            *settled(1),
        ],
    ),
    "cut by length": (
        1,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": "Reyk'),
            chunk({}, "length"),
        ],
    ),
    "a repeated finish_reason with the usage": (
        1,
        [
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": "Oslo"}'),
            chunk({}, "tool_calls"),
            chunk(
                {},
                "tool_calls",
                usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
            ),
        ],
    ),
    "a stream that just stops": (
        1,
        [start("call_a", "get_weather"), *settled(0), more('{"city": ')],
    ),
    "reasoning, then a call": (
        1,
        [
            chunk({"role": "assistant", "reasoning_content": "Think."}),
            start("call_a", "get_weather"),
            *settled(0),
            chunk({**continuing('{"city": '), "reasoning": "x"}),
            more('"Oslo"}'),
            chunk({}, "tool_calls"),
        ],
    ),
    "a custom call": (  # custom input is free text: its fragments are never settled
        0,
        [
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_c",
                            "type": "custom",
                            "custom": {"name": "shell", "input": "ls"},
                        }
                    ]
                }
            ),
            chunk({"tool_calls": [{"index": 0, "custom": {"input": " -la"}}]}),
            more(" and more"),
            chunk({}, "tool_calls"),
        ],
    ),
    "a legacy function_call": (
        0,
        [
            chunk({"role": "assistant", "function_call": {"name": "get_weather", "arguments": ""}}),
            chunk({"function_call": {"arguments": '{"city": "Oslo"}'}}),
            chunk({}, "function_call"),
        ],
    ),
    "two choices": (
        2,
        [
            choices(
                (0, starting("call_a", "get_weather"), None), (1, starting("call_b", "f"), None)
            ),
            *settled(0),
            more('{"city": '),
            choices((1, continuing('{"city": "Rome"}'), None)),
            choices((1, continuing(""), "tool_calls")),
            more('"Oslo"}'),
            choices((0, {}, "tool_calls")),
        ],
    ),
    "an Azure content-filter chunk first": (
        1,
        [
            {
                **BASE,
                "object": "",
                "id": "",
                "model": "",
                "choices": [],
                "prompt_filter_results": [],
            },
            start("call_a", "get_weather"),
            *settled(0),
            more('{"city": "Oslo"}'),
            chunk({}, "tool_calls"),
        ],
    ),
}


@pytest.mark.parametrize("name", SERVER_STREAMS)
def test_server_streams_fold_the_same_on_both_paths(name: str) -> None:
    taken, chunks = SERVER_STREAMS[name]
    assert lockstep(sdk_chunks(chunks)).taken == taken


# --- one chunk that must be left to the general path --------------------------------

PLAIN = more('"Paris", ')
"""A plain continuation chunk: the fast path takes it."""


def variant(change: dict[str, Any], place: str) -> dict[str, Any]:
    """`PLAIN` with `change` merged into its chunk, choice, delta, tool call or function."""
    data: Any = json.loads(json.dumps(PLAIN))
    targets: dict[str, Any] = {"chunk": data}
    targets["choice"] = data["choices"][0]
    targets["delta"] = targets["choice"]["delta"]
    targets["tool call"] = targets["delta"]["tool_calls"][0]
    targets["function"] = targets["tool call"]["function"]
    targets[place].update(change)
    return data


TOKEN = {"token": "x", "logprob": -0.1, "bytes": [120], "top_logprobs": []}
DECLINED = {
    "an id (a new call)": variant({"id": "call_b"}, "tool call"),
    "the open call's own id": variant({"id": "call_a"}, "tool call"),
    "another index": variant({"index": 1}, "tool call"),
    "no index": more("x", None),
    "two fragments": variant(
        {"tool_calls": [PLAIN["choices"][0]["delta"]["tool_calls"][0]] * 2}, "delta"
    ),
    "no function part": variant({"function": None}, "tool call"),
    "extra_content (a thought signature)": variant(
        {"extra_content": {"google": {"thought_signature": "c2ln"}}}, "tool call"
    ),
    "the rest of a split name": variant({"name": "_now"}, "function"),
    "a custom call's input": variant({"function": None, "custom": {"input": "x"}}, "tool call"),
    "a legacy function_call only": variant(
        {"tool_calls": None, "function_call": {"arguments": "x"}}, "delta"
    ),
    "no arguments": variant({"arguments": None}, "function"),
    "content": variant({"content": "Also, "}, "delta"),
    "refusal": variant({"refusal": "No."}, "delta"),
    "reasoning_content": variant({"reasoning_content": "Hm."}, "delta"),
    "reasoning": variant({"reasoning": "Hm."}, "delta"),
    "another extra field": variant({"audio_transcript": "x"}, "delta"),
    "logprobs": variant({"logprobs": {"content": [TOKEN], "refusal": None}}, "choice"),
    "usage": variant(
        {"usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, "chunk"
    ),
    "finish_reason": variant({"finish_reason": "tool_calls"}, "choice"),
    "choice 1": variant({"index": 1}, "choice"),
    "two choices": variant(
        {"choices": [PLAIN["choices"][0], {**PLAIN["choices"][0], "index": 1}]}, "chunk"
    ),
    "no choices": variant({"choices": []}, "chunk"),
    "not a chat.completion.chunk": variant({"object": "chat.completion.chunk.other"}, "chunk"),
    "no delta": variant({"delta": None}, "choice"),
}
TAKEN = {
    "plain": PLAIN,
    "a name repeated (never glued)": variant({"name": "get_weather"}, "function"),
    "a type": variant({"type": "function"}, "tool call"),
    "a role": variant({"role": "assistant"}, "delta"),
    "explicit nulls": variant({"content": None, "refusal": None, "function_call": None}, "delta"),
    "empty arguments": variant({"arguments": ""}, "function"),
    "a legacy function_call beside the fragment": variant(
        {"function_call": {"name": "f", "arguments": "x"}}, "delta"
    ),
    "extra fields on the chunk and choice": variant(
        {"obfuscation": "abc", "moderation": None}, "chunk"
    ),
}


def around(edge: dict[str, Any]) -> list[dict[str, Any]]:
    """`edge` as the fifth chunk: after the call's first two fragments (which the general
    path reads, to see that they are appended) and one the fast path takes."""
    return [
        *settling("call_a", "get_weather"),
        more('{"city": '),
        edge,
        more('"x"}'),
        chunk({}, "tool_calls"),
    ]


@pytest.mark.parametrize("edge", DECLINED.values(), ids=DECLINED.keys())
def test_a_chunk_with_more_than_a_fragment_is_left_to_the_general_path(
    edge: dict[str, Any],
) -> None:
    took = lockstep(sdk_chunks(around(edge))).took
    assert not took[4]
    assert took[3]


@pytest.mark.parametrize("edge", TAKEN.values(), ids=TAKEN.keys())
def test_what_the_general_path_ignores_does_not_stop_the_fast_path(
    edge: dict[str, Any],
) -> None:
    assert lockstep(sdk_chunks(around(edge))).took[4]


SIGNATURE = {"google": {"thought_signature": "c2ln"}}
SPLIT_NAME_OR_SIGNATURE: dict[str, tuple[dict[str, Any], dict[str, Any], str]] = {
    "extra_content on a later fragment": ({"extra_content": SIGNATURE}, {}, "get_weather"),
    "a name split across fragments": ({}, {"name": "_now"}, "get_weather_now"),
}


@pytest.mark.parametrize(
    ("on_fragment", "on_function", "name"),
    SPLIT_NAME_OR_SIGNATURE.values(),
    ids=SPLIT_NAME_OR_SIGNATURE.keys(),
)
def test_a_signature_or_the_rest_of_a_name_reaches_the_final_response(
    on_fragment: dict[str, Any], on_function: dict[str, Any], name: str
) -> None:
    """Gemini's OpenAI endpoint sends a call's thought signature (`extra_content`) on a
    later fragment, and some servers split a name across fragments: `feed` gives the
    response the general path gives, the one a non-streamed request would have."""
    last = more('"}')
    last["choices"][0]["delta"]["tool_calls"][0].update(on_fragment)
    last["choices"][0]["delta"]["tool_calls"][0]["function"].update(on_function)
    items = [
        *settling("call_a", "get_weather"),
        more('{"city": "Oslo'),
        last,
        chunk({}, "tool_calls"),
    ]
    folded = lockstep([validated(item) for item in items])
    tool_call: dict[str, Any] = {
        "id": "call_a",
        "type": "function",
        "function": {"name": name, "arguments": ' \n{"city": "Oslo"}'},
        **on_fragment,
    }
    message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
    assert folded.final == ChatCompletion.model_validate(
        {
            **BASE,
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }
    )
    assert folded.took == (False, False, False, True, False, False)


def test_chunks_the_fast_path_cannot_read_are_folded_as_before() -> None:
    """Chunks built by hand (without fields the SDK always sets, with a tuple or a dict
    of choices) and an OpenAI-compatible library's plain objects are declined, and
    folded (or refused) by the general path."""
    no_usage = validated(more("1"))
    del vars(no_usage)["usage"]
    no_logprobs = validated(more("2"))
    del vars(no_logprobs.choices[0])["logprobs"]
    a_tuple = validated(more("3"))
    a_tuple = a_tuple.model_copy(update={"choices": tuple(a_tuple.choices)})
    a_dict = validated(more("4"))
    a_dict = a_dict.model_copy(update={"choices": {0: a_dict.choices[0]}})
    declined = [no_usage, no_logprobs, a_tuple, a_dict]
    last = validated(more("5"))
    folded = lockstep(
        [validated(start("call_a", "f")), *declined, last, validated(chunk({}, "stop"))]
    )
    assert folded.took[1:-1] == (False, False, False, False, True)

    stream = [start("call_a", "f"), more("{}"), more(""), chunk({}, "tool_calls")]
    plain = lockstep([namespace(item.model_dump()) for item in sdk_chunks(stream)])
    assert plain.taken == 0  # such a delta may have reasoning fields: never taken


def validated(data: dict[str, Any]) -> ChatCompletionChunk:
    return ChatCompletionChunk.model_validate(data)


class ReasoningDelta(ChoiceDelta):
    reasoning_content: str | None = None


class ReasoningChoice(Choice):
    delta: ReasoningDelta  # pyright: ignore[reportIncompatibleVariableOverride]


class ReasoningChunk(ChatCompletionChunk):
    """A compatible library's chunk whose delta declares a reasoning field."""

    choices: list[ReasoningChoice]  # pyright: ignore[reportIncompatibleVariableOverride]


def test_a_delta_that_declares_a_reasoning_field_is_left_to_the_general_path() -> None:
    stream = [start("call_a", "f"), more("{"), more("", reasoning_content="Hm."), more("}")]
    items = [ReasoningChunk.model_validate(item) for item in [*stream, chunk({}, "stop")]]
    assert lockstep(items).taken == 0


def namespace(data: object) -> object:
    """`data` as plain objects read by attribute, as an OpenAI-compatible library's."""
    if isinstance(data, dict):
        fields = cast("dict[str, object]", data)
        return SimpleNamespace(**{key: namespace(value) for key, value in fields.items()})
    if isinstance(data, list):
        return [namespace(value) for value in cast("list[object]", data)]
    return data
