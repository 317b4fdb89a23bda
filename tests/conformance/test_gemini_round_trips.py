"""Recorded Gemini traffic: toolwire's follow-up matches what the API accepted.

Each case's response is replayed through the real `genai.Client` over an httpx2
mock transport (JSON, or SSE for streamed cases, folded by `ToolCallStream`);
toolwire dispatches the calls, and the follow-up it builds is sent through the
SDK too, so what is compared is the wire body the SDK would send.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any, cast

import httpx2
import pytest
from google import genai
from google.genai import types

from tests.conformance.recorded import Answers, is_error, recorded_group, recorded_text
from tests.helpers import offline_gemini_client
from tests.shared_data import all_cases, require_shared, round_trip_cases
from toolwire._read import read_calls
from toolwire.core import (
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    assistant_messages,
    tool_result_messages,
    turn_status,
)

EMPTY_RESPONSE: dict[str, Any] = {"candidates": []}


def replay_client(replies: list[Any], sent: list[dict[str, Any]]) -> genai.Client:
    """A real client whose transport records request bodies and answers from `replies`
    (a dict is sent as JSON, a str as an SSE body)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        reply = replies.pop(0)
        if isinstance(reply, str):
            return httpx2.Response(
                200, content=reply.encode(), headers={"content-type": "text/event-stream"}
            )
        return httpx2.Response(200, json=reply)

    return offline_gemini_client(httpx2.Client(transport=httpx2.MockTransport(handle)))


def model_of(case: dict[str, Any]) -> str:
    """The model name in the case's endpoint URL."""
    return case["endpoint"].rsplit("/models/", 1)[1].split(":", 1)[0]


def config_of(request: dict[str, Any]) -> types.GenerateContentConfig:
    """The recorded request's tools, tool config and system instruction, as SDK config."""
    tools: Any = request.get("tools") or []
    listed = cast("list[Any]", tools if isinstance(tools, list) else [tools])
    config = types.GenerateContentConfig(
        tools=[types.Tool.model_validate(t) for t in listed],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    if "toolConfig" in request:
        config.tool_config = types.ToolConfig.model_validate(request["toolConfig"])
    if "systemInstruction" in request:
        config.system_instruction = types.Content.model_validate(request["systemInstruction"])
    return config


def recorded_tools(request: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(name, schema) of every recorded function declaration."""
    tools: Any = request.get("tools") or []
    listed = cast("list[dict[str, Any]]", tools if isinstance(tools, list) else [tools])
    found: list[tuple[str, dict[str, Any]]] = []
    for tool in listed:
        declarations: list[dict[str, Any]] = tool.get("functionDeclarations") or tool.get(
            "function_declarations", []
        )
        for declaration in declarations:
            schema = declaration.get("parameters_json_schema") or declaration.get("parameters")
            found.append((declaration["name"], schema or {}))
    return found


def signature(value: str | None) -> bytes | None:
    """Signature bytes from standard or URL-safe base64."""
    if value is None:
        return None
    text = value.replace("+", "-").replace("/", "_")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def part_view(part: dict[str, Any], *, with_id: bool, signed: bool = True) -> dict[str, Any]:
    """What must survive the round trip of a model part (signature as bytes)."""
    view = {k: v for k, v in part.items() if k != "thoughtSignature"}
    if signed:
        view["thoughtSignature"] = signature(part.get("thoughtSignature"))
    call = part.get("functionCall")
    if call is not None:
        view["functionCall"] = {
            "name": call["name"],
            "args": call.get("args") or {},
            **({"id": call["id"]} if with_id and call.get("id") else {}),
        }
    return view


def recorded_parts(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The model parts of the recorded response (JSON or the SSE chunks, in order)."""
    response: Any = case["response"]
    if not isinstance(response, str):
        return cast("list[dict[str, Any]]", response["candidates"][0]["content"]["parts"])
    parts: list[dict[str, Any]] = []
    for chunk in sse_chunks(response):
        candidates: list[dict[str, Any]] = chunk.get("candidates", [])
        for candidate in candidates[:1]:
            content: dict[str, Any] = candidate.get("content") or {}
            parts += cast("list[dict[str, Any]]", content.get("parts", []))
    return [p for p in parts if p != {"text": ""}]


def sse_chunks(body: str) -> Iterator[dict[str, Any]]:
    for line in body.splitlines():
        if line.startswith("data:"):
            chunk: dict[str, Any] = json.loads(line[5:])
            yield chunk


def test_corpus_is_present() -> None:
    """The recorded corpus exists where CI expects it, with the Gemini cases counted here."""
    require_shared()
    assert len(round_trip_cases("gemini", stream=False)) == 38
    assert len(round_trip_cases("gemini", stream=True)) == 3
    assert len([c for c in all_cases() if c["api"] == "gemini" and not c["stream"]]) == 86


def run_case(case: dict[str, Any]) -> None:
    """Replay, dispatch, send the follow-up, and compare it with the recorded one."""
    request, followup = case["request"], case["followup_request"]
    sent: list[dict[str, Any]] = []
    client = replay_client([case["response"], EMPTY_RESPONSE], sent)
    model, config = model_of(case), config_of(request)
    if case["stream"]:
        stream = ToolCallStream("gemini")
        events = [
            event
            for chunk in client.models.generate_content_stream(
                model=model, contents=request["contents"], config=config
            )
            for event in stream.feed(chunk)
        ]
        response = stream.final_response()
        started = [e for e in events if isinstance(e, ToolCallStarted)]
        completed = [e.call for e in events if isinstance(e, ToolCallCompleted)]
        assert completed == read_calls(response, api="gemini")
        assert [(e.index, e.call_id) for e in started] == [
            (i, c.id) for i, c in enumerate(completed)
        ]
    else:
        response = client.models.generate_content(
            model=model, contents=request["contents"], config=config
        )
    assert turn_status(response, "gemini") == "tool_calls"

    group = recorded_group(case, recorded_tools(request))
    answers = Answers(case["tool_results"])
    results = group.run_tool_calls(response, answers)
    assert len(results) == len(case["tool_results"])
    # A call to a tool the request did not declare is answered by toolwire itself (in its
    # own words, as an error, like the recorded client did); every other call ran its handler.
    unknown = [r.fail_reason == "invalid_name" for r in results]
    assert answers.served == unknown.count(False)

    history: list[Any] = [*request["contents"], *assistant_messages(response, "gemini")]
    history += tool_result_messages(results, "gemini")
    client.models.generate_content(model=model, contents=history, config=config)
    start = len(request["contents"])
    ours, theirs = sent[1]["contents"][start:], followup["contents"][start:]

    # The model turn: every recorded part, in order, signatures byte-exact, no ids added.
    recorded = recorded_parts(case)
    assert ours[0]["role"] == "model"
    assert [part_view(p, with_id=True) for p in ours[0]["parts"]] == [
        part_view(p, with_id=True) for p in recorded
    ]
    # The recorded client added a placeholder signature to unsigned parts (its choice): compare
    # signatures with the follow-up only where the model sent one.
    signed = ["thoughtSignature" in p for p in recorded]
    assert [
        part_view(p, with_id=False, signed=s) for p, s in zip(ours[0]["parts"], signed, strict=True)
    ] == [
        part_view(p, with_id=False, signed=s)
        for p, s in zip(theirs[0]["parts"], signed, strict=True)
    ]

    # Then one user content: one response per call, in order, id exactly when the call had one.
    call_ids = [(p["functionCall"].get("id")) for p in recorded if "functionCall" in p]
    their_responses = [
        p["functionResponse"]
        for content in theirs[1:]
        if content.get("role") == "user"
        for p in content["parts"]
        if "functionResponse" in p
    ][: len(call_ids)]
    assert len(ours) == 2
    assert ours[1]["role"] == "user"
    expected: list[dict[str, Any]] = []
    for call_id, theirs_response, recorded_result, result in zip(
        call_ids, their_responses, case["tool_results"], results, strict=True
    ):
        if result.fail_reason == "invalid_name":
            assert is_error(case, recorded_result)
            response = {"error": result.result_content}
        else:
            key = "error" if is_error(case, recorded_result) else "output"
            response = {key: recorded_text(recorded_result)}
        expected.append(
            {
                **({"id": call_id} if call_id else {}),
                "name": theirs_response["name"],
                "response": response,
            }
        )
    assert [p["functionResponse"] for p in ours[1]["parts"]] == expected


@pytest.mark.parametrize("case", round_trip_cases("gemini", stream=False))
def test_follow_up_matches_recording(case: dict[str, Any]) -> None:
    """Calls, ids, the replayed model Content and the function responses match."""
    run_case(case)


@pytest.mark.parametrize("case", round_trip_cases("gemini", stream=True))
def test_streamed_follow_up_matches_recording(case: dict[str, Any]) -> None:
    """A streamed turn folded by ToolCallStream gives the same follow-up as recorded."""
    run_case(case)


def synthesized_stream(response: dict[str, Any]) -> str:
    """The SSE body of `response` streamed one part per chunk, then a closing empty
    text part carrying the finish reason and usage (as Gemini 3 streams end)."""
    candidate = response["candidates"][0]
    head = {k: v for k, v in response.items() if k not in ("candidates", "usageMetadata")}
    lines: list[str] = []
    for part in candidate["content"]["parts"]:
        chunk = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}],
            **head,
        }
        lines.append(f"data: {json.dumps(chunk)}\n\n")
    closing = {k: v for k, v in candidate.items() if k != "content"}
    closing["content"] = {"role": "model", "parts": [{"text": ""}]}
    last = {"candidates": [closing], "usageMetadata": response.get("usageMetadata"), **head}
    lines.append(f"data: {json.dumps(last)}\n\n")
    return "".join(lines)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c["id"]) for c in all_cases() if c["api"] == "gemini" and not c["stream"]],
)
def test_synthesized_stream_folds_to_the_recorded_response(case: dict[str, Any]) -> None:
    """Each recorded response, streamed one part per chunk, folds back to the same parts,
    finish reason, usage and call ids as the non-streamed response."""
    sent: list[dict[str, Any]] = []
    client = replay_client([case["response"], synthesized_stream(case["response"])], sent)
    model, contents = model_of(case), case["request"]["contents"]
    whole = client.models.generate_content(model=model, contents=contents)
    stream = ToolCallStream("gemini")
    completed = [
        event.call
        for chunk in client.models.generate_content_stream(model=model, contents=contents)
        for event in stream.feed(chunk)
        if isinstance(event, ToolCallCompleted)
    ]
    folded = stream.final_response()
    assert folded.candidates and whole.candidates
    assert folded.candidates[0].content == whole.candidates[0].content
    assert folded.candidates[0].finish_reason == whole.candidates[0].finish_reason
    assert folded.usage_metadata == whole.usage_metadata
    assert folded.response_id == whole.response_id
    assert completed == read_calls(folded, api="gemini") == read_calls(whole, api="gemini")
    assert assistant_messages(folded, "gemini") == assistant_messages(whole, "gemini")
