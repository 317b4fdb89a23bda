"""Recorded Responses traffic: toolwire's follow-up matches what the API accepted.

Each eligible case is replayed through the real `OpenAI` client (JSON, or SSE fed
event by event to `ToolCallStream("responses")` for streamed cases), dispatched with
toolwire, and the follow-up toolwire builds is sent through the client again. What
went on the wire is compared with the recorded follow-up: the same function calls
(call ids, names, arguments), the same reasoning items (`encrypted_content`), then one
`function_call_output` per call in order with the same text, and no key the SDK's
param types do not define.
"""

from __future__ import annotations

import json
from typing import Any, cast

import httpx2
import pytest
from openai import OpenAI, Stream
from openai.types.responses import Response, ResponseStreamEvent

from tests.conformance.recorded import Answers, recorded_group
from tests.shared_data import require_shared, round_trip_cases
from tests.test_responses_param_keys import undefined_keys
from toolwire.core import (
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)

FOLLOW_UP_ANSWER: dict[str, Any] = {
    "id": "resp_followup",
    "object": "response",
    "created_at": 0,
    "model": "m",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "status": "completed",
}


def replay_client(case: dict[str, Any], sent: list[dict[str, Any]]) -> OpenAI:
    """A real client answering the recorded response first (JSON or SSE), then a stub."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        if len(sent) > 1:
            return httpx2.Response(200, json=FOLLOW_UP_ANSWER)
        if case["stream"]:
            return httpx2.Response(
                200,
                content=case["response"].encode(),
                headers={"content-type": "text/event-stream"},
            )
        return httpx2.Response(200, json=case["response"])

    return OpenAI(api_key="x", http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))


def recorded_tools(case: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every function tool the case offered (also those a tool search loaded), with its
    recorded schema; a tool known only from its call gets an open schema."""
    found: dict[str, dict[str, Any]] = {}
    outputs: list[dict[str, Any]] = [
        item
        for item in [*case["request"]["input"], *_output_items(case)]
        if isinstance(item, dict) and cast(dict[str, Any], item).get("type") == "tool_search_output"
    ]
    offered: list[dict[str, Any]] = [*case["request"].get("tools", [])]
    offered += [tool for output in outputs for tool in output["tools"]]
    for tool in offered:
        if tool.get("type") == "function":
            found.setdefault(tool["name"], tool.get("parameters") or {})
    for result in case["tool_results"]:
        found.setdefault(result["name"], {"type": "object"})
    return list(found.items())


def _output_items(case: dict[str, Any]) -> list[Any]:
    response: Any = case["response"]
    if not isinstance(response, dict):
        return []  # SSE text: the calls' tools are in the request
    output: list[Any] = cast(dict[str, Any], response).get("output") or []
    return output


def create_response(client: OpenAI, case: dict[str, Any]) -> Response:
    """The recorded response as the SDK gives it; streamed ones through ToolCallStream."""
    request: dict[str, Any] = case["request"]
    if not case["stream"]:
        return cast(Response, client.responses.create(**request))
    stream = ToolCallStream("responses")
    completed: list[str] = []
    events = cast("Stream[ResponseStreamEvent]", client.responses.create(**request))
    for event in events:
        for happened in stream.feed(event):
            if isinstance(happened, ToolCallCompleted):
                completed.append(happened.call.id)
    assert completed == [c["call_id"] for c in case["tool_results"]]
    return stream.final_response()


def test_corpus_is_present() -> None:
    """The recorded corpus exists where CI expects it (skips on a bare clone)."""
    require_shared()
    assert round_trip_cases("openai-responses", stream=False)
    assert round_trip_cases("openai-responses", stream=True)


@pytest.mark.parametrize(
    "case",
    round_trip_cases("openai-responses", stream=False)
    + round_trip_cases("openai-responses", stream=True),
)
def test_follow_up_matches_recording(case: dict[str, Any]) -> None:
    """Calls, ids, arguments, reasoning items and the function_call_output items match."""
    request, followup = case["request"], case["followup_request"]
    sent: list[dict[str, Any]] = []
    client = replay_client(case, sent)
    response = create_response(client, case)

    group: ToolGroup[Answers, None] = recorded_group(case, recorded_tools(case))
    answers = Answers(case["tool_results"])
    results = group.run_tool_calls(response, answers)
    assert answers.served == len(case["tool_results"]) == len(results)

    prefix = request["input"]
    turn = assistant_messages(response, "responses")
    history = [*prefix, *turn, *tool_result_messages(results, "responses")]
    follow_up = {k: v for k, v in request.items() if k not in ("input", "stream")}
    client.responses.create(**follow_up, input=history)
    ours: list[dict[str, Any]] = sent[1]["input"][len(prefix) :]
    theirs: list[dict[str, Any]] = followup["input"][len(prefix) :]

    assert _calls(ours) == _calls(theirs)
    assert _reasoning(ours) == _reasoning(theirs)
    ours_turn, ours_outputs = ours[: len(turn)], ours[len(turn) :]
    assert all(item["type"] != "function_call_output" for item in ours_turn)
    recorded_outputs = [i for i in theirs if i.get("type") == "function_call_output"]
    assert ours_outputs == [
        {"type": "function_call_output", "call_id": i["call_id"], "output": _text(i["output"])}
        for i in recorded_outputs[: len(results)]
    ]
    assert [undefined_keys(item) for item in ours] == [[] for _ in ours]


def _calls(items: list[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    return [
        (i["call_id"], i["name"], json.loads(i["arguments"] or "{}"))
        for i in items
        if i.get("type") == "function_call"
    ]


def _reasoning(items: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [(i["id"], i.get("encrypted_content")) for i in items if i.get("type") == "reasoning"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content)
