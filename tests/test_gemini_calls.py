"""Reading Gemini function calls: every shape in, one StandardToolCall per call, the id policy."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from google.genai import types

from toolwire._api import api_of
from toolwire._read import read_calls
from toolwire.core import BaseFunctionToolModel, StandardToolCall, ToolGroup
from toolwire.exceptions import UnexpectedObjectError

SIGNATURE = b"\x00sig\xff-bytes"


def wire_response(*parts: dict[str, Any], response_id: str | None = "resp-1") -> dict[str, Any]:
    """A generateContent response body as the API sends it (camelCase JSON)."""
    body: dict[str, Any] = {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 9},
        "modelVersion": "gemini-test",
    }
    if response_id is not None:
        body["responseId"] = response_id
    return body


def call_part(name: str, args: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    call: dict[str, Any] = {"name": name}
    if args is not None:
        call["args"] = args
    return {"functionCall": call, **extra}


SIGNED = {"thoughtSignature": base64.b64encode(SIGNATURE).decode()}
BODY = wire_response(
    {"text": "Let me look.", "thought": True},
    call_part("get_weather", {"city": "Paris", "days": 3.0}, **SIGNED),
    {"text": "Checking both."},
    call_part("get_time", None),
)
RESPONSE = types.GenerateContentResponse.model_validate(BODY)
EXPECTED = [
    StandardToolCall(
        "function", "toolwire_resp-1_0", "get_weather", {"city": "Paris", "days": 3.0}, True
    ),
    StandardToolCall("function", "toolwire_resp-1_1", "get_time", {}, True),
]


def test_response_gives_every_call_in_order_with_synthesized_ids() -> None:
    """Calls without ids get `toolwire_<response_id>_<position>`, marked synthesized."""
    assert read_calls(RESPONSE) == EXPECTED


def test_ids_are_the_same_on_every_dispatch() -> None:
    """The same response gives the same ids each time (and from a re-parsed copy)."""
    again = types.GenerateContentResponse.model_validate(BODY)
    assert read_calls(RESPONSE) == read_calls(RESPONSE) == read_calls(again)


def test_position_alone_without_a_response_id() -> None:
    """With no response id (a bare Content, or a response without one) ids come from position."""
    content = RESPONSE.candidates[0].content if RESPONSE.candidates else None
    assert [c.id for c in read_calls(content)] == ["toolwire_0", "toolwire_1"]
    no_id = types.GenerateContentResponse.model_validate({**BODY, "responseId": None})
    assert [c.id for c in read_calls(no_id)] == ["toolwire_0", "toolwire_1"]


def test_provider_ids_are_kept_and_not_marked() -> None:
    """A call that carries an id keeps it; only the calls without one are synthesized."""
    body = wire_response(
        call_part("get_weather", {"city": "Oslo", "days": 1}) | {},
        call_part("get_time", {"tz": "UTC"}),
    )
    body["candidates"][0]["content"]["parts"][0]["functionCall"]["id"] = "call-a"
    calls = read_calls(types.GenerateContentResponse.model_validate(body))
    assert calls == [
        StandardToolCall("function", "call-a", "get_weather", {"city": "Oslo", "days": 1}),
        StandardToolCall("function", "toolwire_resp-1_1", "get_time", {"tz": "UTC"}, True),
    ]


SHAPES: dict[str, Any] = {
    "response": RESPONSE,
    "response dict (camelCase wire JSON)": BODY,
    "response dict (snake_case SDK dump)": RESPONSE.model_dump(),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_whole_response_shapes(shape: str) -> None:
    """Responses, as SDK objects or dicts, give the same calls and ids."""
    assert read_calls(SHAPES[shape]) == EXPECTED


@pytest.mark.parametrize("shape", ["object", "dict"])
def test_candidate_and_content(shape: str) -> None:
    """A candidate or a Content (no response id: ids from position) gives the calls too."""
    candidate = (RESPONSE.candidates or [])[0]
    content = candidate.content
    items = (
        [candidate, content]
        if shape == "object"
        else [candidate.model_dump(), BODY["candidates"][0]["content"]]
    )
    for item in items:
        assert [(c.id, c.name) for c in read_calls(item)] == [
            ("toolwire_0", "get_weather"),
            ("toolwire_1", "get_time"),
        ]


def _parts() -> list[types.Part]:
    assert RESPONSE.candidates and RESPONSE.candidates[0].content
    return list(RESPONSE.candidates[0].content.parts or [])


ITEM_SHAPES: dict[str, list[Any]] = {
    "Parts": _parts(),
    "FunctionCalls": RESPONSE.function_calls or [],
    "PartDicts (snake_case)": [p.model_dump(exclude_none=True) for p in _parts()],
    "PartDicts (camelCase)": [
        p.model_dump(mode="json", by_alias=True, exclude_none=True) for p in _parts()
    ],
    "FunctionCallDicts": [c.model_dump(exclude_none=True) for c in RESPONSE.function_calls or []],
    "FunctionCallDicts with None values": [c.model_dump() for c in RESPONSE.function_calls or []],
}


@pytest.mark.parametrize("shape", list(ITEM_SHAPES))
def test_item_lists_give_position_ids(shape: str) -> None:
    """Lists of parts or calls (any form) skip non-call parts; ids come from call position."""
    calls = read_calls(ITEM_SHAPES[shape])
    assert [(c.id, c.name, c.input, c.synthesized_id) for c in calls] == [
        ("toolwire_0", "get_weather", {"city": "Paris", "days": 3.0}, True),
        ("toolwire_1", "get_time", {}, True),
    ]


def test_single_calls_through_from_any_call() -> None:
    """One Part, FunctionCall or dict form reads as one call."""
    part = _parts()[1]
    assert part.function_call is not None
    items: list[types.Part | types.FunctionCall | dict[str, Any]] = [
        part,
        part.function_call,
        part.model_dump(mode="json", by_alias=True),
    ]
    for item in items:
        assert StandardToolCall.from_any_call(item) == StandardToolCall(
            "function", "toolwire_0", "get_weather", {"city": "Paris", "days": 3.0}, True
        )


@pytest.mark.parametrize(
    "data",
    [
        {"functionCall": {"name": "f"}},
        {"function_call": {"name": "f", "args": {}}},
        {"name": "f", "args": {}},
        {"name": "f", "id": "x"},
        {"thoughtSignature": "c2ln", "text": "hi"},
        {"text": "hi"},
        {"candidates": []},
        {"promptFeedback": {"blockReason": "SAFETY"}},
        {"content": {"parts": []}, "finishReason": "STOP"},
        {"parts": [{"text": "hi"}], "role": "model"},
    ],
)
def test_gemini_dicts_are_recognized(data: dict[str, Any]) -> None:
    """Gemini's dict shapes (snake and camelCase) are told apart from other APIs' dicts."""
    assert api_of(data) == "gemini"


def test_empty_and_text_only_turns_have_no_calls() -> None:
    """A text answer, a blocked prompt and an empty candidate hold no calls."""
    assert (
        read_calls(types.GenerateContentResponse.model_validate(wire_response({"text": "Hi"})))
        == []
    )
    blocked = types.GenerateContentResponse.model_validate(
        {"promptFeedback": {"blockReason": "SAFETY"}}
    )
    assert read_calls(blocked) == []
    assert read_calls({"candidates": [{"finishReason": "SAFETY"}]}) == []


def test_vertex_argument_fragments_are_folded() -> None:
    """A FunctionCall with partial_args reads as the merged call; one still marked
    will_continue was cut, and reads as a truncated call (SDK objects and dict forms)."""
    fragments = [
        types.PartialArg(json_path="$.text", string_value="ab", will_continue=True),
        types.PartialArg(json_path="$.text", string_value="c"),
        types.PartialArg(json_path="$.n", number_value=2.0),
    ]
    whole = types.FunctionCall(id="c1", name="write", partial_args=fragments)
    cut = types.FunctionCall(id="c2", name="write", args={"text": "ab"}, will_continue=True)
    wire = {
        "functionCall": {"name": "write", "partialArgs": [{"jsonPath": "$.a", "boolValue": True}]}
    }
    assert read_calls([whole, cut, wire]) == [
        StandardToolCall("function", "c1", "write", {"text": "abc", "n": 2}),
        StandardToolCall("function", "c2", "write", {"text": "ab"}, truncated=True),
        StandardToolCall("function", "toolwire_2", "write", {"a": True}, synthesized_id=True),
    ]


def test_other_objects_are_refused_with_a_hint() -> None:
    """Something that is not a Gemini part or call raises an error naming what to pass."""
    with pytest.raises(UnexpectedObjectError, match=r"^Expected a Gemini part or function call"):
        read_calls([types.Part(text="x"), object()], api="gemini")
    with pytest.raises(UnexpectedObjectError) as raised:
        read_calls([{"bogus": 1}], api="gemini")
    assert str(raised.value) == (
        "Expected a Gemini part or function call (or its dict form), got a dict with keys "
        "['bogus']: pass what the Gemini client returned, or its dict form."
    )
    with pytest.raises(UnexpectedObjectError, match=r"^Expected a Gemini response \(a Gen"):
        read_calls(object(), api="gemini")


class Weather(BaseFunctionToolModel[None, None]):
    model_tool_custom_name = "get_weather"

    city: str
    days: int

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.city} for {self.days} days ({type(self.days).__name__})", None


class Time(BaseFunctionToolModel[None, None]):
    model_tool_custom_name = "get_time"

    tz: str = "UTC"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"noon {self.tz}", None


def test_dispatch_validates_whole_floats_and_missing_args() -> None:
    """`3.0` for an int field validates as 3; `args` None validates as {} (defaults apply)."""
    results = ToolGroup.from_list([Weather, Time]).run_tool_calls(RESPONSE, None)
    assert [(r.call_id, r.result_content, r.synthesized_id) for r in results] == [
        ("toolwire_resp-1_0", "Paris for 3 days (int)", True),
        ("toolwire_resp-1_1", "noon UTC", True),
    ]


def test_fractional_float_for_an_int_is_a_failure_the_model_sees() -> None:
    """`3.5` for an int is an invalid_arguments failure, not an exception."""
    body = wire_response(call_part("get_weather", {"city": "Rome", "days": 3.5}))
    [result] = ToolGroup.from_list([Weather]).run_tool_calls(
        types.GenerateContentResponse.model_validate(body), None
    )
    assert result.fail_reason == "invalid_arguments"
    assert "days" in result.result_content
