"""Random and hostile tool calls of every API through core and aio dispatch (issue 7).

Each hypothesis example is one model turn: a few calls with hostile names, ids and
arguments, built for one API in every form toolwire reads (the SDK's own objects, their
dict forms, the Gemini wire JSON; item lists and whole responses). Every form goes
through `ToolGroup.run_tool_calls` of `toolwire.core` and of `toolwire.aio`, and must give:

- exactly one result per call, in call order, whose id is the provider's id or the
  synthesized one (marked so), the same in core and aio;
- the outcome the call deserves where it is known (invalid name, invalid arguments,
  truncated, success), and never an exception other than the developer mistakes listed
  in `DEVELOPER_MISTAKES`, raised exactly when the turn holds one;
- failure texts toolwire writes that are bounded, free of pydantic's documentation URLs,
  and echo at most `MAX_ECHO` characters of any huge input;
- native results that render and a `tool_result_messages` placement the API wants, and,
  for whole responses, a history (`assistant_messages` + results) that passes
  `check_history`.

Hostile material: malformed, cut and non-object JSON; `null`, empty and missing
arguments; unknown and hostile names (`__class__`, `model_tool_handler`, NUL bytes,
10,000 characters, unicode); duplicate, empty and missing ids; wrong types, extra fields,
floats for ints, hostile union tags; nesting past the depth limit; huge strings; cut turns.
Megabytes and 20,000 to 100,000 levels of nesting (and a cyclic dict) are explicit
examples (`test_megabytes_and_depth`), not random sizes, to keep this file fast;
test_hostile_limits.py follows such arguments through streams, replay and check_history.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, cast

import pytest
from anthropic.types import Message
from google.genai import types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletion
from openai.types.responses import Response
from pydantic import BaseModel, Field

from tests.strength import scaled
from toolwire import aio, core
from toolwire._call import synthesized_id
from toolwire._feedback import MAX_FEEDBACK_CHARS
from toolwire.core import (
    Api,
    StandardToolCall,
    ToolCallResult,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import CallKindMismatchError, ToolwireError
from toolwire.testing import check_history

MARK = "\u2603"
"""The only character of the huge strings the strategies make, so an echo is easy to find."""
MAX_ECHO = 64
"""The most characters of one input a failure text may repeat (a tool name, cut)."""

DEVELOPER_MISTAKES: dict[type[Exception], str] = {
    CallKindMismatchError: "a custom call to a function tool, or a function call to a custom tool",
}
"""The only exceptions dispatch may raise for the random turns, each for one cause the
turn must hold. The other developer-facing errors, each tested below or elsewhere:

- `ToolwireError` for a dict call whose name or id is not a string, and for a Gemini content dict `assistant_messages`
  cannot read (no API sends these, so no model can cause them);
- `UnhandledCallsError` for Responses client-side calls toolwire does not run
  (test_responses_calls.py);
- `ToolBatchError` for unexpected handler exceptions (test_dispatch.py,
  test_reliability_aio.py).
"""

TOOL_FAILURES = ("invalid_name", "invalid_arguments", "truncated")
"""Failure reasons whose text toolwire writes (the rest carry the handler's words)."""


# -- the tools -----------------------------------------------------------------------


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Weather(core.BaseFunctionToolModel[list[str], None]):
    """Weather for a city."""

    model_tool_custom_name = "get_weather"

    city: str
    days: int = 1
    unit: Literal["celsius", "fahrenheit"] = "celsius"

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("get_weather")
        return "sunny", None


class Ping(core.BaseFunctionToolModel[list[str], None]):
    """Check the service."""

    model_tool_custom_name = "ping"

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("ping")
        return "pong", None


class Adopt(core.BaseFunctionToolModel[list[str], None]):
    """Adopt a pet."""

    model_tool_custom_name = "adopt"

    pet: Annotated[Cat | Dog, Field(discriminator="kind")]

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("adopt")
        return "adopted", None


class RunSql(core.BaseCustomToolModel[list[str], None]):
    """Run SQL."""

    model_tool_custom_name = "run_sql"

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("run_sql")
        return "rows", None


class AioWeather(aio.BaseFunctionToolModel[list[str], None]):
    """Weather for a city."""

    model_tool_custom_name = "get_weather"

    city: str
    days: int = 1
    unit: Literal["celsius", "fahrenheit"] = "celsius"

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("get_weather")
        return "sunny", None


class AioPing(aio.BaseFunctionToolModel[list[str], None]):
    """Check the service."""

    model_tool_custom_name = "ping"

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("ping")
        return "pong", None


class AioAdopt(aio.BaseFunctionToolModel[list[str], None]):
    """Adopt a pet."""

    model_tool_custom_name = "adopt"

    pet: Annotated[Cat | Dog, Field(discriminator="kind")]

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("adopt")
        return "adopted", None


class AioRunSql(aio.BaseCustomToolModel[list[str], None]):
    """Run SQL."""

    model_tool_custom_name = "run_sql"

    async def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append("run_sql")
        return "rows", None


CORE = core.ToolGroup.from_list([Weather, Ping, Adopt, RunSql])
AIO = aio.ToolGroup.from_list([AioWeather, AioPing, AioAdopt, AioRunSql])
FUNCTION_TOOLS = ("get_weather", "ping", "adopt")
CUSTOM_TOOLS = ("run_sql",)
FIELDS = ("city", "days", "unit", "pet", "deep")
"""Argument names the tools read (and the nesting key): extra fields avoid them."""
REQUIRED = {"get_weather": True, "ping": False, "adopt": True}
"""Whether the tool needs arguments (so that "no arguments" is invalid for it)."""


# -- one API-neutral call --------------------------------------------------------------

Outcome = Literal["ok", "invalid_name", "invalid_arguments", "truncated", "?"]
"""What a call deserves; "?" when the strategy cannot tell (random text)."""


@dataclass(frozen=True)
class Raw:
    """Arguments sent as this exact text (OpenAI arguments, Anthropic's INVALID_JSON)."""

    text: str
    outcome: Outcome
    """What the text deserves for a tool that needs arguments..."""
    empty_outcome: Outcome | None = None
    """...and, when it means "no arguments", for one that needs none."""


@dataclass(frozen=True)
class Call:
    """One call of a turn, before it is dressed as an API's object."""

    kind: Literal["function", "custom"]
    name: str
    id: str | None
    """The provider's id; None: the key is missing (SDK forms send "")."""
    arguments: Raw | dict[str, Any] | None
    """JSON-able dict (sent as a dict, or dumped to text), raw text, or None (no value)."""
    outcome: Outcome

    def text(self) -> str:
        """The arguments as JSON text (OpenAI)."""
        if isinstance(self.arguments, Raw):
            return self.arguments.text
        if self.arguments is None:
            return ""
        return json.dumps(self.arguments)

    def as_dict(self) -> dict[str, Any] | None:
        """The arguments as a dict (Anthropic, Gemini); raw text in Anthropic's wrapper."""
        if isinstance(self.arguments, Raw):
            return {"INVALID_JSON": self.arguments.text}
        return self.arguments


# -- strategies ------------------------------------------------------------------------

HOSTILE_NAMES = (
    "__class__",
    "__init__",
    "__dict__",
    "model_tool_handler",
    "model_validate",
    "get",
    "keys",
    "a\x00b",
    "get_weather\x00",
    " ping",
    "PING",
    "\u00fcn\u00efc\u00f8d\u00e9",
    "\U0001f527",
    MARK * 10_000,
)

huge_text = st.integers(100, 3000).map(lambda n: MARK * n)
unknown_names = st.one_of(
    st.sampled_from(HOSTILE_NAMES),
    st.text(max_size=12).filter(lambda name: name not in (*FUNCTION_TOOLS, *CUSTOM_TOOLS)),
)
ids = st.one_of(
    st.sampled_from(["call_a", "call_b", "toolu_1"]),  # duplicates within a batch
    st.just(""),
    st.none(),
    st.text(min_size=1, max_size=12),
    st.just(MARK * 10_000),
)


def nested(depth: int) -> Any:
    """Lists nested `depth` levels deep, built without recursion."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


@st.composite
def weather_arguments(draw: st.DrawFn) -> tuple[dict[str, Any], Outcome]:
    """Arguments for get_weather: valid, or broken in one of several ways."""
    args: dict[str, Any] = {"city": draw(st.one_of(st.text(max_size=20), huge_text))}
    if draw(st.booleans()):  # floats for ints (Gemini sends them): whole ones validate
        args["days"] = draw(st.one_of(st.integers(-1000, 1000), st.integers(0, 9).map(float)))
    if draw(st.booleans()):
        args["unit"] = draw(st.sampled_from(["celsius", "fahrenheit"]))
    breakage = draw(
        st.sampled_from(
            ["none", "none", "no_city", "city_type", "days_fraction", "days_text", "unit", "big"]
        )
    )
    if breakage == "none":
        return args, "ok"
    if breakage == "no_city":
        del args["city"]
    elif breakage == "city_type":
        args["city"] = draw(st.sampled_from([5, None, ["x"], {"x": 1}, True]))
    elif breakage == "days_fraction":
        args["days"] = 3.5
    elif breakage == "days_text":
        args["days"] = draw(st.sampled_from(["many", ""]))
    elif breakage == "unit":
        args["unit"] = draw(st.one_of(st.just("kelvin"), huge_text))
    else:
        args["days"] = draw(huge_text)
    return args, "invalid_arguments"


@st.composite
def adopt_arguments(draw: st.DrawFn) -> tuple[dict[str, Any], Outcome]:
    """Arguments for adopt: a tagged union, with hostile tags (pydantic quotes the tag)."""
    kind = draw(st.one_of(st.sampled_from(["cat", "dog"]), st.text(max_size=5), huge_text))
    pet: Any = {"kind": kind}
    if draw(st.booleans()):
        wrong: list[Any] = [{}, "cat", [kind], None]
        pet = draw(st.sampled_from(wrong))
        return {"pet": pet}, "invalid_arguments"
    return {"pet": pet}, "ok" if kind in ("cat", "dog") else "invalid_arguments"


@st.composite
def function_arguments(draw: st.DrawFn, name: str, text_api: bool) -> tuple[Any, Outcome]:
    """Arguments for a function call named `name` and the outcome they deserve."""
    if text_api and draw(st.integers(0, 3)) == 0:
        return draw(raw_arguments(name)), "?"
    if draw(st.integers(0, 5)) == 0:
        return None, "invalid_arguments" if REQUIRED.get(name, False) else "ok"
    args: dict[str, Any]
    if name == "get_weather":
        args, outcome = draw(weather_arguments())
    elif name == "adopt":
        args, outcome = draw(adopt_arguments())
    else:
        args = draw(
            st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=3)
        )
        outcome = "ok"
    if draw(st.booleans()):  # extra fields are ignored
        extra_key = st.one_of(st.text(max_size=8), huge_text).filter(lambda k: k not in FIELDS)
        args[draw(extra_key)] = draw(
            st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False), huge_text)
        )
    if draw(st.integers(0, 3)) == 0:  # nesting past the depth limit of 64 fails
        depth = draw(st.integers(1, 90))
        args["deep"] = nested(depth)
        if depth + 1 > 64:
            outcome = "invalid_arguments"
    return args, outcome


@st.composite
def raw_arguments(draw: st.DrawFn, name: str) -> Raw:
    """Arguments as raw text: malformed, cut, non-object, empty, or random."""
    choice = draw(st.sampled_from(["cut", "non_object", "empty", "junk", "random"]))
    if choice == "cut":  # a proper prefix of an object is never valid JSON
        full = json.dumps({"city": draw(st.text(max_size=20)), "days": 2})
        return Raw(full[: draw(st.integers(1, len(full) - 1))], "invalid_arguments")
    if choice == "non_object":
        text = draw(st.sampled_from(["[1, 2]", "42", '"text"', "true", "false", "-1.5", "NaN"]))
        return Raw(text, "invalid_arguments")
    if choice == "empty":  # "no arguments": valid exactly for tools that need none
        text = draw(st.sampled_from(["", "   ", "null", " null\n"]))
        return Raw(text, "invalid_arguments", "ok")
    if choice == "junk":
        text = draw(st.sampled_from(['{"city": "x"} trailing', "{'city': 'x'}", "{,}", MARK * 500]))
        return Raw(text, "invalid_arguments")
    return Raw(draw(st.text(max_size=40)), "?")


FUNCTION_CALL_KINDS = st.sampled_from(["tool"] * 12 + ["unknown"] * 4 + ["mismatch"])
CALL_KINDS = st.sampled_from(
    ["tool"] * 12 + ["unknown"] * 4 + ["custom"] * 3 + ["unknown custom", "mismatch"]
)
"""What a call is, weighted: mostly a known tool, and rarely a developer mistake."""


@st.composite
def calls(draw: st.DrawFn, api: Api) -> Call:
    """One call for `api`, hostile or not (known tools most of the time)."""
    text_api = api in ("chat.completions", "responses")
    call_id = draw(ids) if api != "gemini" or draw(st.integers(0, 3)) == 0 else None
    choice = draw(CALL_KINDS if text_api else FUNCTION_CALL_KINDS)
    if choice == "mismatch":  # a call of the other kind than its tool's: a developer mistake
        if text_api and draw(st.booleans()):
            return Call(
                "custom", draw(st.sampled_from(FUNCTION_TOOLS)), call_id, Raw("", "ok"), "?"
            )
        return Call("function", "run_sql", call_id, {}, "?")
    if choice in ("custom", "unknown custom"):  # an OpenAI custom tool call
        name = draw(st.sampled_from(CUSTOM_TOOLS) if choice == "custom" else unknown_names)
        text = draw(st.one_of(st.text(max_size=30), huge_text))
        outcome: Outcome = "ok" if choice == "custom" else "invalid_name"
        return Call("custom", name, call_id, Raw(text, "ok"), outcome)
    name = draw(st.sampled_from(FUNCTION_TOOLS) if choice == "tool" else unknown_names)
    arguments, outcome = draw(function_arguments(name, text_api))
    if isinstance(arguments, Raw) and outcome == "?":
        outcome = arguments.outcome
        if arguments.empty_outcome is not None and not REQUIRED.get(name, False):
            outcome = arguments.empty_outcome
    if name not in FUNCTION_TOOLS:
        outcome = "invalid_name"
    return Call("function", name, call_id, arguments, outcome)


@dataclass(frozen=True)
class Turn:
    """One model turn of one API: its calls and what surrounds them."""

    api: Api
    calls: tuple[Call, ...]
    response_id: str
    cut: bool
    """The turn was cut by a length limit."""
    prose: bool
    """Text, thinking or reasoning parts around the calls."""
    trailing_text: bool
    """A text part after the last call (so no call is the last item)."""
    item_status: tuple[str | None, ...]
    """Responses only: each call item's status."""
    json_safe: bool = True
    """The arguments are JSON that `json.dumps` can write (not too deep, not cyclic)."""


@st.composite
def turns(draw: st.DrawFn, api: Api) -> Turn:
    """A turn of `api` with 0 to 5 calls."""
    batch = tuple(draw(st.lists(calls(api), max_size=5)))
    statuses = tuple(
        draw(st.sampled_from(["completed"] * 4 + ["incomplete", "in_progress", None]))
        for _ in batch
    )
    return Turn(
        api=api,
        calls=batch,
        response_id=draw(st.sampled_from(["resp_1", "", "id with spaces/and\x00more", MARK * 80])),
        cut=draw(st.sampled_from([False, False, True])),
        prose=draw(st.booleans()),
        trailing_text=draw(st.booleans()),
        item_status=statuses,
    )


# -- the turn as each API's objects ----------------------------------------------------


def chat_call(call: Call, sdk: bool) -> dict[str, Any]:
    item: dict[str, Any] = {"type": call.kind}
    if call.id is not None or sdk:
        item["id"] = call.id or ""
    if call.kind == "custom":
        item["custom"] = {"name": call.name, "input": call.text()}
    else:
        item["function"] = {"name": call.name, "arguments": call.text()}
    return item


def chat_response(turn: Turn, sdk: bool) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "Let me check." if turn.prose else None,
    }
    if turn.calls:
        message["tool_calls"] = [chat_call(c, sdk) for c in turn.calls]
    finish = "length" if turn.cut else "tool_calls"
    return {
        "id": turn.response_id,
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": finish, "logprobs": None, "message": message}],
    }


def responses_items(turn: Turn, sdk: bool) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if turn.prose:
        items.append({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"})
    for index, (call, status) in enumerate(zip(turn.calls, turn.item_status, strict=True)):
        item: dict[str, Any] = {"id": f"item_{index}", "name": call.name}
        if call.id is not None or sdk:
            item["call_id"] = call.id or ""
        if call.kind == "custom":
            item.update(type="custom_tool_call", input=call.text())
        else:
            item.update(type="function_call", arguments=call.text())
            if status is not None:
                item["status"] = status
        items.append(item)
    if turn.trailing_text:
        items.append(
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            }
        )
    return items


def responses_response(turn: Turn, sdk: bool) -> dict[str, Any]:
    return {
        "id": turn.response_id,
        "object": "response",
        "created_at": 1,
        "status": "incomplete" if turn.cut else "completed",
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if turn.cut else None,
        "model": "gpt-test",
        "output": responses_items(turn, sdk),
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def anthropic_blocks(turn: Turn, sdk: bool) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if turn.prose:
        blocks.append({"type": "thinking", "thinking": "Hmm.", "signature": "c2ln"})
        blocks.append({"type": "text", "text": "Let me check."})
    for call in turn.calls:
        block: dict[str, Any] = {"type": "tool_use", "name": call.name}
        if call.id is not None or sdk:
            block["id"] = call.id or ""
        arguments = call.as_dict()
        block["input"] = {} if arguments is None and sdk else arguments
        blocks.append(block)
    if turn.trailing_text:
        blocks.append({"type": "text", "text": "Done."})
    return blocks


def anthropic_message(turn: Turn, sdk: bool) -> dict[str, Any]:
    return {
        "id": turn.response_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": anthropic_blocks(turn, sdk),
        "stop_reason": "max_tokens" if turn.cut else "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def gemini_parts(turn: Turn) -> list[dict[str, Any]]:
    """The parts as camelCase wire JSON; the first call carries a thought signature."""
    parts: list[dict[str, Any]] = []
    if turn.prose:
        parts.append({"text": "Planning.", "thought": True})
    for position, call in enumerate(turn.calls):
        function_call: dict[str, Any] = {"name": call.name}
        if call.id is not None:
            function_call["id"] = call.id
        arguments = call.as_dict()
        if arguments is not None:
            function_call["args"] = arguments
        part: dict[str, Any] = {"functionCall": function_call}
        if position == 0 and turn.prose:
            part["thoughtSignature"] = base64.b64encode(b"signature").decode()
        parts.append(part)
    if turn.trailing_text:
        parts.append({"text": "Done."})
    return parts


def gemini_response(turn: Turn) -> dict[str, Any]:
    body: dict[str, Any] = {
        "candidates": [
            {
                "index": 0,
                "content": {"role": "model", "parts": gemini_parts(turn)},
                "finishReason": "MAX_TOKENS" if turn.cut else "STOP",
            }
        ],
        "modelVersion": "gemini-test",
    }
    if turn.response_id:
        body["responseId"] = turn.response_id
    return body


@dataclass(frozen=True)
class Form:
    """One way a caller hands the turn to toolwire."""

    label: str
    value: object
    response_id: str | None
    """The response id that synthesized ids derive from (None for item lists)."""
    whole: bool
    """A whole response: the turn's cut applies, and `assistant_messages` takes it."""


def forms(turn: Turn) -> list[Form]:
    """Every form of `turn` toolwire reads: SDK objects and dicts, items and responses."""
    rid = turn.response_id
    if turn.api == "chat.completions":
        sdk = ChatCompletion.model_validate(chat_response(turn, sdk=True))
        data = chat_response(turn, sdk=False)
        message = sdk.choices[0].message
        return [
            Form("sdk response", sdk, rid, True),
            Form("dict response", data, rid, True),
            Form("sdk message", message, None, False),
            Form("sdk items", list(message.tool_calls or []), None, False),
            Form("dict items", data["choices"][0]["message"].get("tool_calls", []), None, False),
        ]
    if turn.api == "responses":
        sdk_response = Response.model_validate(responses_response(turn, sdk=True))
        data = responses_response(turn, sdk=False)
        return [
            Form("sdk response", sdk_response, rid, True),
            Form("dict response", data, rid, True),
            Form("sdk items", list(sdk_response.output), None, False),
            Form("dict items", data["output"], None, False),
        ]
    if turn.api == "anthropic":
        sdk_message = Message.model_validate(anthropic_message(turn, sdk=True))
        data = anthropic_message(turn, sdk=False)
        return [
            Form("sdk message", sdk_message, rid, True),
            Form("dict message", data, rid, True),
            Form("sdk blocks", list(sdk_message.content), None, False),
            Form("dict blocks", data["content"], None, False),
        ]
    wire = gemini_response(turn)
    sdk_gemini = types.GenerateContentResponse.model_validate(wire)
    snake = sdk_gemini.model_dump(exclude_none=True)
    candidate = (sdk_gemini.candidates or [])[0]
    content = candidate.content or types.Content()
    parts = list(content.parts or [])
    return [
        Form("sdk response", sdk_gemini, rid, True),
        Form("wire response", wire, rid, True),
        Form("snake response", snake, rid, True),
        Form("sdk content", content, None, False),
        Form("sdk parts", parts, None, False),
        Form(
            "sdk function calls", [p.function_call for p in parts if p.function_call], None, False
        ),
        Form("wire parts", wire["candidates"][0]["content"]["parts"], None, False),
        Form("snake parts", snake["candidates"][0]["content"]["parts"], None, False),
    ]


# -- what each call deserves -----------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    id: str
    synthesized: bool
    name: str
    outcome: Outcome


def truncated_flags(turn: Turn, form: Form) -> list[bool]:
    """Which calls the Decisions' truncation rule cuts in this form of the turn."""
    count = len(turn.calls)
    if turn.api == "responses":
        # An "incomplete" item is cut; in a response that stopped early, so is a call still
        # "in_progress" and a status-less one (custom calls have no status) that is the
        # response's last item. Items alone carry no response status.
        stopped = form.whole and turn.cut
        flags: list[bool] = []
        for position, (call, status) in enumerate(zip(turn.calls, turn.item_status, strict=True)):
            status = status if call.kind == "function" else None
            last = position == count - 1 and not turn.trailing_text
            flags.append(
                status == "incomplete"
                or (stopped and (status == "in_progress" or (status is None and last)))
            )
        return flags
    if not (form.whole and turn.cut):
        return [False] * count
    if turn.api == "chat.completions":
        # A function call is cut when its JSON is incomplete; a custom call's free text
        # shows no such thing, so the turn's last call, if custom, is taken as cut.
        return [
            not complete_json(c.text()) if c.kind == "function" else i == count - 1
            for i, c in enumerate(turn.calls)
        ]
    if turn.api == "anthropic":
        return [i == count - 1 and not turn.trailing_text for i in range(count)]
    return [False] * count


def complete_json(text: str) -> bool:
    """The Decisions' "complete" for a cut turn's call; text too deep to parse counts as
    complete, since the depth limit fails it either way."""
    try:
        json.loads(text)
    except ValueError:
        return False
    except RecursionError:
        return True
    return True


def expectations(turn: Turn, form: Form) -> list[Expected]:
    expected: list[Expected] = []
    for ordinal, (call, cut) in enumerate(
        zip(turn.calls, truncated_flags(turn, form), strict=True)
    ):
        synthesized = not call.id
        call_id = synthesized_id(form.response_id, ordinal) if synthesized else call.id or ""
        outcome: Outcome = "truncated" if cut else call.outcome
        expected.append(Expected(call_id, synthesized, call.name, outcome))
    return expected


def kind_mismatch(turn: Turn, flags: Sequence[bool]) -> bool:
    """Whether a call that is not cut names a tool of the other kind."""
    for call, cut in zip(turn.calls, flags, strict=True):
        kinds = FUNCTION_TOOLS if call.kind == "function" else CUSTOM_TOOLS
        others = CUSTOM_TOOLS if call.kind == "function" else FUNCTION_TOOLS
        if not cut and call.name in others and call.name not in kinds:
            return True
    return False


# -- the checks --------------------------------------------------------------------------


def outcome_of(result: ToolCallResult[Any]) -> tuple[str, bool, str, str | None, str]:
    return (
        result.call_id,
        result.synthesized_id,
        result.name,
        result.fail_reason,
        result.result_content,
    )


def check_results(
    turn: Turn, form: Form, results: list[ToolCallResult[Any]], ran: list[str]
) -> None:
    """One result per call, in order, with the call's id and the outcome it deserves."""
    expected = expectations(turn, form)
    assert [(r.call_id, r.synthesized_id, r.name) for r in results] == [
        (e.id, e.synthesized, e.name) for e in expected
    ], form.label
    for result, wanted in zip(results, expected, strict=True):
        if wanted.outcome == "ok":
            assert result.fail_reason is None, (form.label, result.result_content)
        elif wanted.outcome != "?":
            assert result.fail_reason == wanted.outcome, (form.label, result.result_content)
        if result.fail_reason in TOOL_FAILURES:
            check_feedback(result.result_content)
    assert sorted(ran) == sorted(r.name for r in results if r.fail_reason is None)


def check_feedback(text: str) -> None:
    """A failure text toolwire wrote: bounded, no pydantic URL, no long echo of input."""
    assert 0 < len(text) <= MAX_FEEDBACK_CHARS
    assert "errors.pydantic.dev" not in text
    assert "For further information" not in text
    assert max((len(run) for run in re.findall(f"{MARK}+", text)), default=0) <= MAX_ECHO


def check_native(api: Api, results: list[ToolCallResult[Any]]) -> None:
    """Every result renders natively, and `tool_result_messages` places them per API."""
    for result in results:
        failed = result.fail_reason is not None
        assert result.tool_message == {
            "role": "tool",
            "tool_call_id": result.call_id,
            "content": result.result_content,
        }
        item = result.output_item
        assert (item["type"], item.get("call_id"), item["output"]) == (
            "function_call_output" if result.type == "function" else "custom_tool_call_output",
            result.call_id,
            result.result_content,
        )
        block = result.tool_result_block
        assert (block["tool_use_id"], block.get("is_error", False)) == (result.call_id, failed)
        response = result.function_response_part.function_response
        assert response is not None
        assert (response.id, response.name, response.response) == (
            None if result.synthesized_id else result.call_id,
            result.name or "unnamed_function",  # the API requires a name on every response
            {"error" if failed else "output": result.result_content},
        )
    messages = tool_result_messages(results, api)
    if not results:
        assert messages == []
    elif api == "chat.completions":
        assert messages == [r.tool_message for r in results]
    elif api == "responses":
        assert messages == [r.output_item for r in results]
    elif api == "anthropic":
        assert messages == [{"role": "user", "content": [r.tool_result_block for r in results]}]
    else:
        (content,) = messages
        assert isinstance(content, types.Content)
        assert content.role == "user"
        assert content.parts == [r.function_response_part for r in results]


FIRST_USER_MESSAGE: dict[Api, Any] = {
    "chat.completions": {"role": "user", "content": "Go."},
    "responses": {"role": "user", "content": "Go."},
    "anthropic": {"role": "user", "content": "Go."},
    "gemini": {"role": "user", "parts": [{"text": "Go."}]},
}


def check_replay(turn: Turn, form: Form, results: list[ToolCallResult[Any]]) -> None:
    """The replayed turn and its results make a history the API would accept."""
    api = turn.api
    history = [
        FIRST_USER_MESSAGE[api],
        *assistant_messages(cast(Any, form.value), api),
        *tool_result_messages(results, api),
    ]
    if api != "gemini" and turn.json_safe:
        json.dumps(history)  # the helpers return plain, JSON-serializable params
    ids = [r.call_id for r in results]
    unique = len(set(ids)) == len(ids)
    if api == "anthropic" and not unique:
        return  # the API refuses repeated tool_use ids: no history can answer them
    if api == "gemini" and not unique:
        return  # ids pair calls and responses one to one
    assert check_history(history, api) == [], form.label


def dispatch_all(turn: Turn) -> None:
    """Every form of the turn through core and aio dispatch, with every check."""
    all_forms = forms(turn)
    for form in all_forms:
        flags = truncated_flags(turn, form)
        mismatch = kind_mismatch(turn, flags)
        ran: list[str] = []
        try:
            results = CORE.run_tool_calls(form.value, ran)  # pyright: ignore[reportArgumentType]
        except tuple(DEVELOPER_MISTAKES) as error:
            assert mismatch, (form.label, error)
            assert ran == []  # raised before any handler ran
            with pytest.raises(CallKindMismatchError):
                asyncio.run(AIO.run_tool_calls(form.value, []))  # pyright: ignore[reportArgumentType]
            continue
        assert not mismatch, form.label
        check_results(turn, form, results, ran)
        check_native(turn.api, results)
        aio_ran: list[str] = []
        aio_results = asyncio.run(AIO.run_tool_calls(form.value, aio_ran))  # pyright: ignore[reportArgumentType]
        assert [outcome_of(r) for r in aio_results] == [outcome_of(r) for r in results]
        assert sorted(aio_ran) == sorted(ran)
        assert [outcome_of(r) for r in CORE.run_tool_calls(form.value, [])] == [  # pyright: ignore[reportArgumentType]
            outcome_of(r) for r in results
        ]  # the same ids on every dispatch
        if form.whole:
            check_replay(turn, form, results)


EXAMPLES = scaled(100)
"""Hypothesis examples per API (each runs every form of its turn through core and aio)."""

hostile_settings = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic", "gemini"])
@hostile_settings
@given(data=st.data())
def test_hostile_turns(api: Api, data: st.DataObject) -> None:
    """Random and hostile turns of each API: one result per call, ids kept, bounded text."""
    dispatch_all(data.draw(turns(api)))


# -- hand-picked turns the strategies may miss -----------------------------------------


def call(
    name: str,
    arguments: Raw | dict[str, Any] | None,
    outcome: Outcome,
    call_id: str | None = "call_a",
    kind: Literal["function", "custom"] = "function",
) -> Call:
    return Call(kind, name, call_id, arguments, outcome)


def turn(
    api: Api, *batch: Call, cut: bool = False, prose: bool = True, json_safe: bool = True
) -> Turn:
    return Turn(
        api=api,
        calls=batch,
        response_id="resp_1",
        cut=cut,
        prose=prose,
        trailing_text=False,
        item_status=("completed",) * len(batch),
        json_safe=json_safe,
    )


def hostile_names_turn(api: Api) -> Turn:
    """Every hostile name in one turn, each id repeated."""
    batch = [call(name, {}, "invalid_name", "dup") for name in HOSTILE_NAMES]
    return turn(api, *batch, call("ping", {}, "ok", "dup"))


def missing_ids_turn(api: Api) -> Turn:
    """No call has an id (the key is missing, or empty in SDK objects)."""
    return turn(
        api,
        call("ping", None, "ok", None),
        call("get_weather", {"city": "Oslo", "days": 2.0}, "ok", None),
        call("nope", {}, "invalid_name", None),
    )


def huge_echo_turn(api: Api) -> Turn:
    """Huge strings where pydantic would quote them: a union tag, a value, a name."""
    big = MARK * 50_000
    return turn(
        api,
        call("adopt", {"pet": {"kind": big}}, "invalid_arguments"),
        call("get_weather", {"city": "x", "unit": big, big: big}, "invalid_arguments", "b"),
        call(big, {}, "invalid_name", "c"),
    )


def empty_arguments_turn(api: Api) -> Turn:
    """Every way of sending no arguments: fine for a tool that needs none, not otherwise."""
    if api == "gemini":  # Gemini sends args or leaves them out
        return turn(
            api,
            call("ping", None, "ok", None),
            call("get_weather", None, "invalid_arguments", None),
        )
    empties = ["", "   ", "null", " null\n"]
    return turn(
        api,
        *(call("ping", Raw(text, "ok"), "ok", f"p{i}") for i, text in enumerate(empties)),
        call("ping", None, "ok", "none"),
        call("get_weather", Raw("null", "invalid_arguments"), "invalid_arguments", "w"),
    )


@pytest.mark.parametrize("api", ["chat.completions", "responses", "anthropic", "gemini"])
@pytest.mark.parametrize(
    "build", [hostile_names_turn, missing_ids_turn, huge_echo_turn, empty_arguments_turn]
)
def test_hand_picked_turns(api: Api, build: Callable[[Api], Turn]) -> None:
    """Hostile names, missing ids and echo bait hold the same properties on every API."""
    dispatch_all(build(api))


def test_cut_chat_turn_keeps_complete_calls() -> None:
    """A chat turn cut by the length limit: the cut call is truncated, complete ones run."""
    cut_text = Raw('{"city": "Os', "invalid_arguments")
    example = turn(
        "chat.completions",
        call("ping", {}, "ok", "a"),
        call("get_weather", cut_text, "invalid_arguments", "b"),
        cut=True,
    )
    assert [e.outcome for e in expectations(example, forms(example)[0])] == ["ok", "truncated"]
    dispatch_all(example)


def test_cut_responses_turn_truncates_unfinished_calls() -> None:
    """A Responses turn that stopped early: "incomplete" and "in_progress" calls, and a
    status-less last one, are truncated; a completed call runs."""
    example = replace(
        turn(
            "responses",
            call("ping", {}, "ok", "done"),
            call("ping", {}, "ok", "cut"),
            call("ping", {}, "ok", "running"),
            call("ping", {}, "ok", "last"),
            cut=True,
        ),
        item_status=("completed", "incomplete", "in_progress", None),
    )
    whole, items = forms(example)[0], forms(example)[2]
    assert [e.outcome for e in expectations(example, whole)] == ["ok", *["truncated"] * 3]
    assert [e.outcome for e in expectations(example, items)] == ["ok", "truncated", "ok", "ok"]
    dispatch_all(example)


def test_custom_call_to_a_function_tool_raises_before_any_handler() -> None:
    """The one developer mistake a turn can hold raises in core and aio, running nothing."""
    example = turn(
        "chat.completions",
        call("ping", {}, "ok", "a"),
        replace(call("ping", Raw("text", "ok"), "?", "b"), kind="custom"),
    )
    assert kind_mismatch(example, [False, False])
    dispatch_all(example)


def test_standard_calls_pass_through() -> None:
    """StandardToolCall lists keep their ids, synthesized or not."""
    batch = [
        StandardToolCall("function", "x", "ping", None),
        StandardToolCall("function", "toolwire_0", "nope", "{}", synthesized_id=True),
    ]
    results = CORE.run_tool_calls(batch, [])
    assert [outcome_of(r)[:4] for r in results] == [
        ("x", False, "ping", None),
        ("toolwire_0", True, "nope", "invalid_name"),
    ]


# -- megabytes and depth: explicit examples, not random sizes ----------------------------

DEPTH = 100_000
"""Far past the depth limit (64) and Python's recursion limit (1,000)."""
DICT_DEPTH = 20_000
"""The same for dicts, which cost more to build and walk."""
SIZE = 5_000_000
"""Characters: five times the size limit (1 MiB of JSON text)."""


def limits_turn(api: Api, cut: bool) -> Turn:
    """Arguments megabytes long or nested 20,000 to 100,000 levels deep (JSON text for
    OpenAI; dicts built without recursion, and a cyclic dict, for Anthropic and Gemini),
    between calls that run. All of them fail as invalid_arguments; none raises or hangs."""
    ok = call("ping", {}, "ok", "first")
    too_big: Outcome = "invalid_arguments"
    if api in ("chat.completions", "responses"):
        deep = '{"city": "x", "deep": ' + "[" * DEPTH + "]" * DEPTH + "}"
        batch = [
            ok,
            call("get_weather", Raw(deep, too_big), too_big, "deep"),
            call("get_weather", Raw('{"deep": ' + "[" * DEPTH, too_big), too_big, "deep_cut"),
            call("get_weather", Raw('{"city": "' + MARK * SIZE + '"}', too_big), too_big, "big"),
            call("run_sql", Raw(MARK * SIZE, too_big), too_big, "big_sql", "custom"),
            call("ping", Raw("[" * DEPTH, too_big), too_big, "deep_array"),
        ]
    else:
        cyclic: dict[str, Any] = {"city": "x"}
        cyclic["self"] = cyclic
        many_keys = {f"key_{i}": i for i in range(120_000)}  # 1.3M characters
        batch = [
            ok,
            call("get_weather", {"city": "x", "deep": nested(DICT_DEPTH)}, too_big, "deep"),
            call("get_weather", cyclic, too_big, "cyclic"),
            call("get_weather", {"city": MARK * SIZE}, too_big, "big"),
            call("ping", many_keys, too_big, "many_keys"),
        ]
    return turn(api, *batch, call("ping", None, "ok", "last"), cut=cut, json_safe=False)


@pytest.mark.parametrize(
    ("api", "cut"),
    [
        ("chat.completions", False),
        ("chat.completions", True),
        ("responses", False),
        ("responses", True),
        ("anthropic", False),
        ("anthropic", True),
        ("gemini", False),  # a cut Gemini turn's calls run like any other
    ],
)
def test_megabytes_and_depth(api: Api, cut: bool) -> None:
    """Several-MB and 100,000-deep arguments fail at the limits, in every form, core and
    aio; the replayed history still passes check_history."""
    dispatch_all(limits_turn(api, cut))


# -- developer mistakes: raised at once, with what to do ----------------------------------


def vertex_forms() -> list[object]:
    """A Vertex AI call cut after its first argument fragment, in every Gemini form."""
    partial = {"jsonPath": "$.city", "stringValue": "Os"}
    wire = gemini_response(turn("gemini", call("get_weather", {}, "ok", None)))
    part = wire["candidates"][0]["content"]["parts"][0]
    part["functionCall"] = {"name": "get_weather", "partialArgs": [partial], "willContinue": True}
    sdk = types.GenerateContentResponse.model_validate(wire)
    snake = sdk.model_dump(exclude_none=True)
    parts = (sdk.candidates or [])[0].content.parts or []  # pyright: ignore[reportOptionalMemberAccess]
    return [sdk, wire, snake, parts, [part], snake["candidates"][0]["content"]["parts"]]


@pytest.mark.parametrize("form", range(6))
def test_vertex_partial_args_cut_is_never_run(form: int) -> None:
    """A Vertex AI call cut in the middle of its fragments (`will_continue`), in any Gemini
    form, is answered "truncated" in core and aio, and its handler never runs."""
    value = vertex_forms()[form]
    ran: list[str] = []
    results = CORE.run_tool_calls(value, ran)  # pyright: ignore[reportArgumentType]
    aio_results = asyncio.run(AIO.run_tool_calls(value, ran))  # pyright: ignore[reportArgumentType]
    assert [results[0].fail_reason, aio_results[0].fail_reason] == ["truncated", "truncated"]
    assert ran == []  # the turn's other call lacks its required city: nothing ran


WRONG_TYPES: list[tuple[Api, dict[str, Any]]] = [
    (
        "chat.completions",
        {"id": 7, "type": "function", "function": {"name": "ping", "arguments": ""}},
    ),
    (
        "chat.completions",
        {"id": "a", "type": "function", "function": {"name": ["ping"], "arguments": ""}},
    ),
    ("responses", {"type": "function_call", "call_id": {"a": 1}, "name": "ping", "arguments": ""}),
    ("responses", {"type": "custom_tool_call", "call_id": "a", "name": b"run_sql", "input": ""}),
    ("anthropic", {"type": "tool_use", "id": 3.5, "name": "ping", "input": {}}),
    ("anthropic", {"type": "tool_use", "id": "a", "name": 1, "input": {}}),
    ("gemini", {"functionCall": {"id": True, "name": "ping"}}),
    ("gemini", {"function_call": {"name": {"ping": 1}}}),
]


@pytest.mark.parametrize(("api", "item"), WRONG_TYPES)
def test_dicts_with_non_string_names_or_ids_are_developer_errors(
    api: Api, item: dict[str, Any]
) -> None:
    """A dict call whose name or id is not a string was not built from the API's data: a
    ToolwireError says so (no API sends one, so no model can cause it)."""
    with pytest.raises(ToolwireError, match="the API always sends a string there"):
        CORE.run_tool_calls([item], [], api=api)
    with pytest.raises(ToolwireError, match="the API always sends a string there"):
        asyncio.run(AIO.run_tool_calls([item], [], api=api))


def test_gemini_content_dict_not_in_the_sdk_shape_is_a_developer_error() -> None:
    """Dispatch answers non-object Gemini args; replaying such a dict raises a ToolwireError
    that names the place, not pydantic's error with its URL."""
    wire: Any = gemini_response(turn("gemini", call("ping", {}, "ok", None), prose=False))
    wire["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] = [1, 2]
    (result,) = CORE.run_tool_calls(wire, [])
    assert result.fail_reason == "invalid_arguments"
    with pytest.raises(ToolwireError) as error:
        assistant_messages(wire, "gemini")
    assert str(error.value) == snapshot(
        "This Gemini content is not in the SDK's shape: parts.0.functionCall.args: Input should be a valid dictionary. Pass the response (or its candidate or Content) as the SDK returned it, or its dict form."
    )


def test_bad_json_inside_a_json_field_is_that_field_s_error() -> None:
    """Only invalid JSON at the root says "the arguments are not valid JSON": a model told
    that about valid arguments would send the same ones again."""
    from pydantic import Json

    class load_ids(core.BaseFunctionToolModel[None, None]):
        """Load ids."""

        ids: Json[list[int]]

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return str(self.ids), None

    group = core.ToolGroup[None, None].from_list([load_ids])
    call = {"id": "c1", "type": "function", "function": {"name": "load_ids", "arguments": '{"ids": "[1, 2"}'}}  # fmt: skip
    [result] = group.run_tool_calls([call], None)
    assert (result.fail_reason, result.result_content) == (
        "invalid_arguments",
        "Invalid arguments for 'load_ids': 1 error. Fix them and call the tool again.\n"
        '- ids: Invalid JSON: EOF while parsing a list at line 1 column 5 (got "[1, 2")',
    )
