"""Each API's response holding a fixture's calls, built as the SDK's own object, and the
hand-written loop every dispatch figure is a ratio to.

The hand loop is the least a user's loop does per response: read each call's name and
arguments, look up the class, validate (`model_validate_json` for JSON text,
`model_validate(..., strict=False)` for dicts), call the handler, and build the plain
dict that API takes back as the call's result. Rendering adds what follows the calls
in the history: chat and Responses take those dicts as they are, Anthropic wraps its
`tool_result` blocks in one user message, Gemini its function responses in one user
content. The loops are written out per API, not shared, so the floor pays for no
abstraction a hand-written loop would not have.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toolwire._adapters.gemini.results import built
from toolwire.core import Api

from ._tools import Fixture

__all__ = ["APIS", "HandLoop", "build", "calls_of", "same_messages"]

APIS: tuple[Api, ...] = ("chat.completions", "responses", "anthropic", "gemini")


@dataclass(frozen=True)
class HandLoop:
    """One API's response with `count` calls, and the hand loop over it."""

    response: Any
    run: Callable[[], list[dict[str, Any]]]
    """Validate and run every call; one result dict per call, in that API's form."""
    run_and_render: Callable[[], list[Any]]
    """The same, then the messages that go into the history (the user's whole turn)."""
    run_and_render_typed: Callable[[], list[Any]] | None = None
    """The same messages as the SDK objects toolwire's contract returns, where they are not
    plain dicts (Gemini: `types.Content`), each made the cheapest way known (see
    `_gemini`): the floor of that contract."""


def _chat(fixture: Fixture, count: int) -> HandLoop:
    from openai.types.chat import ChatCompletion

    response = ChatCompletion.model_validate(
        {
            "id": "c1", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{
                "index": 0, "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": [
                    {"id": f"call_{i}", "type": "function",
                     "function": {"name": fixture.tool_name, "arguments": json.dumps(a)}}
                    for i, a in enumerate(fixture.arguments(count))
                ]},
            }],
        }
    )  # fmt: skip
    tools = {fixture.tool_name: fixture.tool}

    def by_hand() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for call in response.choices[0].message.tool_calls or []:
            function: Any = getattr(call, "function")  # noqa: B009 (chat calls have it)
            tool = tools[function.name].model_validate_json(function.arguments)
            text, _ = tool.model_tool_handler(None)
            out.append({"role": "tool", "tool_call_id": call.id, "content": text})
        return out

    return HandLoop(response, by_hand, by_hand)


def _responses(fixture: Fixture, count: int) -> HandLoop:
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": "r1", "object": "response", "created_at": 1, "model": "m",
            "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto",
            "tools": [],
            "output": [
                {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}",
                 "name": fixture.tool_name, "arguments": json.dumps(a), "status": "completed"}
                for i, a in enumerate(fixture.arguments(count))
            ],
        }
    )  # fmt: skip
    tools = {fixture.tool_name: fixture.tool}

    def by_hand() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        item: Any
        for item in response.output:
            if item.type == "function_call":
                tool = tools[item.name].model_validate_json(item.arguments)
                text, _ = tool.model_tool_handler(None)
                out.append({"type": "function_call_output", "call_id": item.call_id, "output": text})  # fmt: skip
        return out

    return HandLoop(response, by_hand, by_hand)


def _anthropic(fixture: Fixture, count: int) -> HandLoop:
    from anthropic.types import Message

    message = Message.model_validate(
        {
            "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [
                {"type": "tool_use", "id": f"toolu_{i}", "name": fixture.tool_name, "input": a}
                for i, a in enumerate(fixture.arguments(count))
            ],
        }
    )  # fmt: skip
    tools = {fixture.tool_name: fixture.tool}

    def by_hand() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        block: Any
        for block in message.content:
            if block.type == "tool_use":
                tool = tools[block.name].model_validate(block.input, strict=False)
                text, _ = tool.model_tool_handler(None)
                out.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        return out

    def rendered() -> list[Any]:
        return [{"role": "user", "content": by_hand()}]

    return HandLoop(message, by_hand, rendered)


def _gemini(fixture: Fixture, count: int) -> HandLoop:
    from google.genai import types as genai

    parts = [
        genai.Part(function_call=genai.FunctionCall(name=fixture.tool_name, args=a))
        for a in fixture.arguments(count)
    ]
    candidate = genai.Candidate(
        content=genai.Content(role="model", parts=parts), finish_reason=genai.FinishReason.STOP
    )
    response = genai.GenerateContentResponse(response_id="r1", candidates=[candidate])
    tools = {fixture.tool_name: fixture.tool}

    def by_hand() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        content: Any = response.candidates[0].content if response.candidates else None
        parts: list[Any] = content.parts if content else []
        for part in parts:
            call: Any = part.function_call
            if call is not None:
                tool = tools[call.name].model_validate(call.args or {}, strict=False)
                text, _ = tool.model_tool_handler(None)
                answer: dict[str, Any] = {"name": call.name, "response": {"output": text}}
                if call.id:  # an id goes back exactly when the call had one
                    answer["id"] = call.id
                out.append({"function_response": answer})
        return out

    def rendered() -> list[Any]:
        return [{"role": "user", "parts": by_hand()}]

    def rendered_typed() -> list[Any]:
        """The answer as DESIGN has Gemini's history helpers return it, a `types.Content`
        of `types.Part`s holding `types.FunctionResponse`s. Each is made by `built`, which
        fills the model's slots without validating; no cheaper way to make them is known.
        (The SDK's own constructors validate every field: the same loop answering with
        `Part.from_function_response` and `Content(...)` costs about four times this one.)"""
        parts: list[Any] = []
        for answer in by_hand():
            made = answer["function_response"]
            fields = {"id": made.get("id"), "name": made["name"], "response": made["response"], "parts": None}  # fmt: skip
            parts.append(built("Part", function_response=built("FunctionResponse", **fields)))
        return [built("Content", role="user", parts=parts)]

    return HandLoop(response, by_hand, rendered, rendered_typed)


_BUILDERS: dict[Api, Callable[[Fixture, int], HandLoop]] = {
    "chat.completions": _chat,
    "responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}


def build(api: Api, fixture: Fixture, count: int) -> HandLoop:
    """`api`'s response with `count` calls of `fixture`'s tool, and its hand loop."""
    return _BUILDERS[api](fixture, count)


def calls_of(api: Api, response: Any) -> Iterator[tuple[str, str, Any]]:
    """Each call's id, name and arguments (JSON text or a dict), as a loop around a peer
    reads them (peers take calls, not responses)."""
    items: list[Any]
    if api == "chat.completions":
        items = response.choices[0].message.tool_calls or []
        for call in items:
            yield call.id, call.function.name, call.function.arguments
    elif api == "responses":
        items = [item for item in response.output if item.type == "function_call"]
        for call in items:
            yield call.call_id, call.name, call.arguments
    elif api == "anthropic":
        items = [block for block in response.content if block.type == "tool_use"]
        for call in items:
            yield call.id, call.name, call.input
    else:
        items = response.candidates[0].content.parts
        for index, part in enumerate(items):
            call: Any = part.function_call
            if call is not None:
                yield call.id or f"call_{index}", call.name, call.args or {}


def same_messages(api: Api, ours: list[Any], by_hand: list[Any]) -> bool:
    """Whether toolwire's result messages say what the hand loop's say (Gemini's are
    `types.Content`, compared as the dicts they dump to)."""
    if api == "gemini":
        ours = [content.model_dump(exclude_none=True) for content in ours]
    return ours == by_hand
