"""Recorded Anthropic Messages traffic: toolwire's follow-up matches what the API accepted,
and streams synthesized from the recorded messages fold back to those messages.

The corpus has no Anthropic stream, so each recorded `Message` is turned into the
live event sequence (message_start, ping, content_block_start / deltas / stop per
block, message_delta, message_stop) and replayed as SSE through the real client.
"""

from __future__ import annotations

import json
from typing import Any, cast

import httpx2
import pytest
from anthropic import Anthropic
from anthropic.types import Message, MessageParam
from anthropic.types.beta import BetaMessage

from tests.conformance.recorded import Answers, is_error, recorded_group, recorded_text
from tests.shared_data import all_cases, require_shared, round_trip_cases
from tests.test_anthropic_param_keys import undefined_keys
from toolwire._read import read_calls
from toolwire.core import (
    StreamEvent,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolCallTruncated,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:The model .* is deprecated:DeprecationWarning"  # the recordings use older models
)


def all_anthropic_cases() -> list[Any]:
    """Every recorded Anthropic case, as pytest params (for the stream folds)."""
    return [pytest.param(c, id=c["id"]) for c in all_cases() if c["api"] == "anthropic"]


def replay_client(replies: list[httpx2.Response], sent: list[dict[str, Any]]) -> Anthropic:
    """A real client whose transport records request bodies and answers with `replies`."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        return replies.pop(0)

    return Anthropic(
        api_key="x",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handle)),
        max_retries=0,
    )


def synthesized_sse(message: dict[str, Any], piece: int = 7) -> bytes:
    """The event stream the live API would send for `message` (a recorded JSON body)."""
    usage = dict(message["usage"])
    start: dict[str, Any] = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**usage, "output_tokens": 1},
    }
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": start},
        {"type": "ping"},
    ]
    for index, block in enumerate(message["content"]):
        kind = block["type"]
        if kind == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
        elif kind in ("tool_use", "server_tool_use"):
            opening = {**block, "input": {}}
        else:
            opening = block
        events.append({"type": "content_block_start", "index": index, "content_block": opening})
        if kind == "text":
            for i in range(0, len(block["text"]), piece):
                delta = {"type": "text_delta", "text": block["text"][i : i + piece]}
                events.append({"type": "content_block_delta", "index": index, "delta": delta})
        elif kind in ("tool_use", "server_tool_use"):
            text = json.dumps(block["input"])
            for fragment in ["", *(text[i : i + piece] for i in range(0, len(text), piece))]:
                delta = {"type": "input_json_delta", "partial_json": fragment}
                events.append({"type": "content_block_delta", "index": index, "delta": delta})
        events.append({"type": "content_block_stop", "index": index})
    final = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    if "stop_details" in message:
        final["stop_details"] = message["stop_details"]
    events.append(
        {
            "type": "message_delta",
            "delta": final,
            "usage": {"output_tokens": usage["output_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    text = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    return text.encode()


def sse_reply(body: bytes) -> httpx2.Response:
    return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})


def streamed(client: Anthropic, request: dict[str, Any]) -> tuple[Message, list[StreamEvent]]:
    """Stream `request` through the client into a ToolCallStream: (final, events)."""
    stream = ToolCallStream("anthropic")
    events: list[StreamEvent] = []
    body = {k: v for k, v in request.items() if k != "stream"}
    for event in client.messages.create(**body, stream=True):
        events += stream.feed(event)
    return stream.final_response(), events


def test_corpus_is_present() -> None:
    """The recorded corpus exists where CI expects it (skips on a bare clone)."""
    require_shared()
    assert len(round_trip_cases("anthropic", stream=False)) == 28
    assert len(all_anthropic_cases()) == 55


@pytest.mark.parametrize("source", ["json", "sse", "beta"])
@pytest.mark.parametrize("case", round_trip_cases("anthropic", stream=False))
def test_follow_up_matches_recording(case: dict[str, Any], source: str) -> None:
    """Calls, ids, inputs, the replayed assistant turn and the tool_result message match
    the follow-up the API accepted: from the JSON reply, from the same reply streamed,
    and from the beta endpoint's BetaMessage."""
    request, followup = case["request"], case["followup_request"]
    sent: list[dict[str, Any]] = []
    first = (
        sse_reply(synthesized_sse(case["response"]))
        if source == "sse"
        else httpx2.Response(200, json=case["response"])
    )
    client = replay_client([first, httpx2.Response(200, json=case["response"])], sent)
    message: Message | BetaMessage
    if source == "sse":
        message, _ = streamed(client, request)
    elif source == "beta":
        message = cast(BetaMessage, client.beta.messages.create(**request))
    else:
        message = cast(Message, client.messages.create(**request))

    tools = [(t["name"], t["input_schema"]) for t in request["tools"] if "input_schema" in t]
    group = recorded_group(case, tools)
    answers = Answers(case["tool_results"])
    results = group.run_tool_calls(message, answers)
    assert answers.served == len(case["tool_results"]) == len(results)

    replayed = assistant_messages(message, "anthropic")
    answered = tool_result_messages(results, "anthropic")
    client.messages.create(
        model=request["model"],
        max_tokens=request["max_tokens"],
        messages=[*request["messages"], *replayed, *answered],
        tools=request["tools"],
    )
    ours = sent[-1]["messages"][len(request["messages"]) :]
    theirs = followup["messages"][len(request["messages"]) :]

    assert len(ours) == 2
    assert _blocks(ours[0]) == _blocks(theirs[0])
    recorded = [b for b in theirs[1]["content"] if b["type"] == "tool_result"][: len(results)]
    assert ours[1] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": block["tool_use_id"],
                "content": recorded_text(result),
                **({"is_error": True} if is_error(case, result) else {}),
            }
            for block, result in zip(recorded, case["tool_results"], strict=True)
        ],
    }
    assert [b["tool_use_id"] for b in recorded] == [r["call_id"] for r in case["tool_results"]]
    for param in ours:
        assert undefined_keys(param, MessageParam) == []


@pytest.mark.parametrize("case", all_anthropic_cases())
def test_synthesized_stream_folds_to_the_recorded_message(case: dict[str, Any]) -> None:
    """The stream's final_response() equals the Message the JSON reply gives, and its
    events start, grow and complete every call exactly once, in order."""
    sent: list[dict[str, Any]] = []
    client = replay_client(
        [httpx2.Response(200, json=case["response"]), sse_reply(synthesized_sse(case["response"]))],
        sent,
    )
    recorded = cast(Message, client.messages.create(**case["request"]))
    final, events = streamed(client, case["request"])

    assert final.model_dump() == recorded.model_dump()
    assert final.to_dict() == recorded.to_dict()

    calls = read_calls(recorded)
    completed = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    assert completed == calls
    assert not any(isinstance(e, ToolCallTruncated) for e in events)
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    assert [(e.index, e.call_id, e.name) for e in started] == [
        (i, c.id, c.name) for i, c in enumerate(calls)
    ]
    for index, call in enumerate(calls):
        own = [
            e for e in events if getattr(e, "index", None) == index and not isinstance(e, TurnEnded)
        ]
        assert isinstance(own[0], ToolCallStarted)
        assert isinstance(own[-1], ToolCallCompleted)
        fragments = [e for e in own[1:-1] if isinstance(e, ToolCallArgumentsDelta)]
        assert len(fragments) == len(own) - 2
        assert json.loads("".join(f.fragment for f in fragments)) == call.input
        assert fragments[-1].partial_arguments == call.input
    assert events[-1] == TurnEnded("tool_use", "tool_calls")


def _blocks(message: MessageParam | dict[str, Any]) -> list[Any]:
    """An assistant message's blocks as the API reads them (key order and the
    optional `caller` left aside)."""
    shown: list[Any] = []
    content: Any = message["content"]
    for block in content:
        kind = block["type"]
        if kind == "tool_use":
            shown.append((kind, block["id"], block["name"], block["input"]))
        elif kind == "text":
            shown.append((kind, block["text"]))
        elif kind == "thinking":
            shown.append((kind, block["thinking"], block["signature"]))
        elif kind == "redacted_thinking":
            shown.append((kind, block["data"]))
        else:
            shown.append({k: v for k, v in block.items() if k not in ("caller", "cache_control")})
    return shown
