"""Recorded Chat Completions traffic: toolwire's follow-up matches what the API accepted.

Each case's recorded response is replayed through the real OpenAI client (a mock
transport returns the recorded bytes), dispatched with toolwire, and the follow-up
toolwire builds is sent through the client again; the wire body is compared with
the follow-up the live API accepted. Streamed cases go through ToolCallStream.
"""

from __future__ import annotations

import json
from typing import Any, cast

import httpx2
import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from tests.conformance.recorded import Answers, recorded_group
from tests.shared_data import all_cases, require_shared, round_trip_cases
from toolwire.core import ToolCallStream, assistant_messages, tool_result_messages

EMPTY_COMPLETION: dict[str, Any] = {
    "id": "x",
    "created": 0,
    "model": "m",
    "object": "chat.completion",
    "choices": [],
}


def replay_client(responses: list[Any], sent: list[dict[str, Any]]) -> OpenAI:
    """A real client whose transport records request bodies and answers from `responses`
    (a dict is sent as JSON, a str as an SSE stream)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        body = responses.pop(0)
        if isinstance(body, str):
            headers = {"content-type": "text/event-stream"}
            return httpx2.Response(200, content=body.encode(), headers=headers)
        return httpx2.Response(200, json=body)

    return OpenAI(api_key="x", http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))


def recorded_completion(case: dict[str, Any], client: OpenAI) -> ChatCompletion:
    """The recorded response as the SDK parses it; streamed ones folded by ToolCallStream."""
    if not case["stream"]:
        return cast(ChatCompletion, client.chat.completions.create(**case["request"]))
    stream = ToolCallStream("chat.completions")
    chunks = cast("list[ChatCompletionChunk]", client.chat.completions.create(**case["request"]))
    for chunk in chunks:
        stream.feed(chunk)
    return stream.final_response()


def test_corpus_is_present() -> None:
    """The recorded corpus exists where CI expects it (skips on a bare clone)."""
    require_shared()
    assert len(round_trip_cases("openai-chat", stream=False)) == 20
    assert len(round_trip_cases("openai-chat", stream=True)) == 14


@pytest.mark.parametrize(
    "case",
    round_trip_cases("openai-chat", stream=False) + round_trip_cases("openai-chat", stream=True),
)
def test_follow_up_matches_recording(case: dict[str, Any]) -> None:
    """Calls, ids, arguments, the replayed assistant turn and the tool messages match."""
    request, followup = case["request"], case["followup_request"]
    sent: list[dict[str, Any]] = []
    client = replay_client([case["response"], EMPTY_COMPLETION], sent)
    completion = recorded_completion(case, client)

    tools: list[tuple[str, dict[str, Any]]] = [
        (t["function"]["name"], t["function"].get("parameters") or {})
        for t in request.get("tools", [])
    ]
    group = recorded_group(case, tools)
    answers = Answers(case["tool_results"])
    results = group.run_tool_calls(completion, answers)
    assert answers.served == len(case["tool_results"]) == len(results)

    history = [*request["messages"], *assistant_messages(completion, "chat.completions")]
    history += tool_result_messages(results, "chat.completions")
    client.chat.completions.create(
        model=request["model"], messages=history, tools=request.get("tools", [])
    )
    ours = sent[1]["messages"][len(request["messages"]) :]
    theirs = followup["messages"][len(request["messages"]) :]

    assert [_assistant(m) for m in ours[:1]] == [_assistant(m) for m in theirs[:1]]
    tool_messages = [m for m in theirs[1:] if m["role"] == "tool"][: len(results)]
    assert ours[1:] == [
        {"role": "tool", "tool_call_id": m["tool_call_id"], "content": _text(m["content"])}
        for m in tool_messages
    ]
    assert set(ours[0]) <= {
        "role",
        "content",
        "tool_calls",
        "refusal",
        "name",
        "audio",
        "function_call",
    }


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c["id"]) for c in all_cases() if c["api"] == "openai-chat" and c["stream"]],
)
def test_streamed_calls_equal_the_raw_stream(case: dict[str, Any]) -> None:
    """For every streamed case (with or without follow-up), the folded calls equal an
    independent concatenation of the raw SSE tool-call fragments."""
    client = replay_client([case["response"]], [])
    completion = recorded_completion(case, client)
    expected: dict[int, dict[str, str]] = {}
    for line in case["response"].splitlines():
        if not line.startswith("data: {"):
            continue
        data: Any = json.loads(line[6:])
        for choice in data["choices"]:
            fragments: list[Any] = choice["delta"].get("tool_calls") or []
            for fragment in fragments:
                call = expected.setdefault(
                    fragment["index"], {"id": "", "name": "", "arguments": ""}
                )
                call["id"] = call["id"] or fragment.get("id") or ""
                function: Any = fragment.get("function") or {}
                call["name"] = call["name"] or function.get("name") or ""
                call["arguments"] += function.get("arguments") or ""
    got = [
        {"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
        for c in completion.choices[0].message.tool_calls or []
        if c.type == "function"
    ]
    assert got == [expected[i] for i in sorted(expected)]


def _assistant(message: dict[str, Any]) -> dict[str, Any]:
    tool_calls: list[dict[str, Any]] = message.get("tool_calls") or []
    calls = [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"] or "{}"))
        for c in tool_calls
    ]
    return {"content": message.get("content") or None, "calls": calls}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content)
