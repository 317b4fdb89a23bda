"""Recorded Chat Completions traffic: toolwire's follow-up matches what the API accepted."""

from __future__ import annotations

import json
from typing import Any, cast

import httpx2
import pytest
from openai import OpenAI
from openai.types.chat import ChatCompletion

from tests.conformance.recorded import Answers, recorded_group
from tests.shared_data import require_shared, round_trip_cases
from toolwire.core import assistant_messages, tool_result_messages


def replay_client(responses: list[Any], sent: list[dict[str, Any]]) -> OpenAI:
    """A real client whose transport records request bodies and answers from `responses`."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        return httpx2.Response(200, json=responses.pop(0))

    return OpenAI(api_key="x", http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))


def test_corpus_is_present() -> None:
    """The recorded corpus exists where CI expects it (skips on a bare clone)."""
    require_shared()
    assert round_trip_cases("openai-chat", stream=False)


@pytest.mark.parametrize("case", round_trip_cases("openai-chat", stream=False))
def test_follow_up_matches_recording(case: dict[str, Any]) -> None:
    """Calls, ids, arguments, the replayed assistant turn and the tool messages match."""
    request, followup = case["request"], case["followup_request"]
    sent: list[dict[str, Any]] = []
    client = replay_client(
        [
            case["response"],
            {"choices": [], "id": "x", "created": 0, "model": "m", "object": "chat.completion"},
        ],
        sent,
    )
    completion = cast(ChatCompletion, client.chat.completions.create(**request))

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
