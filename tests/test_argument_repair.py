"""Opt-in argument repair (`run_tool_calls(..., repair=RepairPolicy())`): the shapes
models mangle arguments into, fixed as the tool's schema says, reported on the result,
on the four APIs' real SDK clients (streamed or not) against the fakes; never a change
to a valid call, and every repaired call valid."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inline_snapshot import snapshot

from tests.strength import scaled
from toolwire._api import API_NAMES, Api
from toolwire.aio import BaseFunctionToolModel as AioTool
from toolwire.aio import ToolGroup as AioGroup
from toolwire.core import (
    ArgumentRepair,
    BaseFunctionToolModel,
    RepairPolicy,
    StandardToolCall,
    ToolCallFailure,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import (
    FakeAnthropic,
    FakeCall,
    FakeGemini,
    FakeOpenAI,
    FakeReply,
    check_history,
)


class Point(pydantic.BaseModel):
    x: int
    y: int


class Plot(BaseFunctionToolModel[None, None]):
    """Plot points on a chart."""

    points: list[Point]
    """The points, in order."""
    style: Point | None = None
    """Where the legend goes."""
    caption: str | dict[str, str] = ""
    """Text, or a text per language: a JSON-looking string is text here."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        caption = f" captioned {self.caption!r}" if self.caption else ""
        return f"plotted {len(self.points)} points{caption}", None


GROUP = ToolGroup.from_list([Plot])
POINTS = [{"x": 1, "y": 2}, {"x": 3, "y": 4}]


def call(arguments: str | dict[str, Any]) -> StandardToolCall:
    return StandardToolCall("function", "call_1", "Plot", arguments)


LENIENT = RepairPolicy()


def run(arguments: str | dict[str, Any], policy: RepairPolicy | None = LENIENT) -> Any:
    [result] = GROUP.run_tool_calls([call(arguments)], None, repair=policy)
    return result


def test_each_repair_is_reported_with_its_path() -> None:
    nested = {"points": json.dumps(POINTS), "style": json.dumps({"x": 0, "y": 0})}
    cases = {
        "nested JSON text": json.dumps(nested),
        "double-encoded": json.dumps(json.dumps({"points": POINTS})),
        "glued twice": json.dumps({"points": POINTS}) * 2,
        "an item as text": json.dumps({"points": [POINTS[0], json.dumps(POINTS[1])]}),
        "dict arguments": nested,
    }
    assert {name: (run(a).result_content, run(a).repairs) for name, a in cases.items()} == snapshot(
        {
            "nested JSON text": (
                "plotted 2 points",
                (
                    ArgumentRepair(kind="decoded_string", path="$.points"),
                    ArgumentRepair(kind="decoded_string", path="$.style"),
                ),
            ),
            "double-encoded": (
                "plotted 2 points",
                (ArgumentRepair(kind="unwrapped_arguments", path="$"),),
            ),
            "glued twice": (
                "plotted 2 points",
                (ArgumentRepair(kind="glued_duplicate", path="$"),),
            ),
            "an item as text": (
                "plotted 2 points",
                (ArgumentRepair(kind="decoded_string", path="$.points[1]"),),
            ),
            "dict arguments": (
                "plotted 2 points",
                (
                    ArgumentRepair(kind="decoded_string", path="$.points"),
                    ArgumentRepair(kind="decoded_string", path="$.style"),
                ),
            ),
        }
    )


def test_repair_is_off_by_default_and_changes_no_valid_call() -> None:
    mangled = json.dumps({"points": json.dumps(POINTS)})
    assert run(mangled, None).fail_reason == "invalid_arguments"
    # a JSON-looking string where the schema takes text stays text, in a repaired call too
    caption = '{"en": "hi"}'
    valid = run(json.dumps({"points": POINTS, "caption": caption}))
    repaired = run(json.dumps({"points": json.dumps(POINTS), "caption": caption}))
    assert (valid.result_content, valid.repairs) == (
        """plotted 2 points captioned '{"en": "hi"}'""",
        (),
    )
    assert (repaired.result_content, repaired.repairs) == (
        valid.result_content,
        (ArgumentRepair("decoded_string", "$.points"),),
    )


def test_dict_arguments_of_the_response_are_not_changed() -> None:
    arguments = {"points": [POINTS[0], json.dumps(POINTS[1])]}
    result = run(arguments)
    assert result.repairs and arguments == {"points": [POINTS[0], json.dumps(POINTS[1])]}


def test_different_glued_objects_are_refused_not_merged_or_dropped() -> None:
    glued = json.dumps({"points": POINTS}) + json.dumps({"points": POINTS[:1]})
    result = run(glued)
    assert isinstance(result, ToolCallFailure)
    assert (result.fail_reason, result.result_content, result.repairs) == snapshot(
        (
            "invalid_arguments",
            "The arguments for 'Plot' are 2 different JSON objects one after the other, so none was run: a call takes one object. If you meant several calls, make one call per object; otherwise call it again with the one you meant.",
            (),
        )
    )


def test_a_repair_that_still_fails_keeps_the_models_own_errors() -> None:
    sent = json.dumps({"points": json.dumps([{"x": 1}])})
    assert run(sent).result_content == run(sent, None).result_content


def test_the_fallback_runs_last_and_its_arguments_are_validated() -> None:
    seen: list[tuple[str, str | None]] = []

    def fix(call: StandardToolCall, failure: ToolCallFailure) -> dict[str, Any] | None:
        seen.append((call.id, failure.fail_reason))
        return {"points": POINTS} if call.input == "points: 1,2 3,4" else {"points": "no"}

    fixed = run("points: 1,2 3,4", RepairPolicy(fallback=fix))
    refused = run("points?", RepairPolicy(fallback=fix))
    assert (fixed.result_content, fixed.repairs) == (
        "plotted 2 points",
        (ArgumentRepair("repair_function"),),
    )
    assert refused.result_content == run("points?", None).result_content
    assert seen == [("call_1", "invalid_arguments")] * 2


def test_a_fallback_that_raises_is_the_calls_unexpected_error() -> None:
    def broken(call: StandardToolCall, failure: ToolCallFailure) -> None:
        raise KeyError("oops")

    [result] = GROUP.run_tool_calls(
        [call("nope")], None, repair=RepairPolicy(fallback=broken), unexpected_errors="fail"
    )
    assert (result.fail_reason, type(result.exception)) == ("unexpected_error", KeyError)


def test_a_fallback_that_returns_something_else_is_the_calls_unexpected_error() -> None:
    """A mistake in the fallback, not a call the model got wrong: never quietly refused."""

    def wrong(call: StandardToolCall, failure: ToolCallFailure) -> Any:
        return Plot(points=[])

    [result] = GROUP.run_tool_calls(
        [call("nope")], None, repair=RepairPolicy(fallback=wrong), unexpected_errors="fail"
    )
    assert (result.fail_reason, repr(result.exception)) == snapshot(
        (
            "unexpected_error",
            "TypeError(\"RepairPolicy's fallback returned a Plot for call 'call_1' to 'Plot'; return the new arguments (a dict, or JSON text), or None to leave the call refused.\")",
        )
    )


def test_a_wrong_policy_says_what_to_pass() -> None:
    with pytest.raises(TypeError, match=r"repair=RepairPolicy\(\)"):
        GROUP.run_tool_calls([call("nope")], None, repair=True)  # pyright: ignore[reportArgumentType]


class AioPlot(AioTool[None, None]):
    """Plot points on a chart."""

    points: list[Point]

    async def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"plotted {len(self.points)} points", None


def test_aio_batches_repair_too() -> None:
    group = AioGroup.from_list([AioPlot])
    mangled = StandardToolCall("function", "c", "AioPlot", {"points": json.dumps(POINTS)})
    [result] = asyncio.run(group.run_tool_calls([mangled], None, repair=RepairPolicy()))
    assert result.repairs == (ArgumentRepair("decoded_string", "$.points"),)


# -- the four APIs, streamed or not, on the real SDK clients and the fakes ---------------

STRING_ARGUMENTS = json.dumps(json.dumps({"points": json.dumps(POINTS)}))
"""Double-encoded, with the array inside as JSON text (what OpenAI models send)."""
DICT_ARGUMENTS = {"points": json.dumps(POINTS)}
"""The array as JSON text inside dict arguments (Anthropic, Gemini)."""


def fake_for(api: Api) -> Any:
    arguments = STRING_ARGUMENTS if api in ("chat.completions", "responses") else DICT_ARGUMENTS
    script = [FakeReply.tool_calls(FakeCall("Plot", arguments)), FakeReply(text="Done.")]
    if api == "anthropic":
        return FakeAnthropic(script=script)
    if api == "gemini":
        return FakeGemini(script=script)
    return FakeOpenAI(script=script)


def ask(api: Api, client: Any, history: list[Any], streamed: bool) -> Any:
    tools: Any = GROUP.tool_definitions(api)
    if api == "chat.completions":
        request: dict[str, Any] = {"model": "gpt-test", "messages": history, "tools": tools}
        items = client.chat.completions.create(**request, stream=streamed)
    elif api == "responses":
        items = client.responses.create(
            model="gpt-test", input=history, tools=tools, stream=streamed
        )
    elif api == "anthropic":
        items = client.messages.create(
            model="claude", max_tokens=500, messages=history, tools=tools, stream=streamed
        )
    else:
        from google.genai import types

        config = types.GenerateContentConfig(tools=tools)
        create = (
            client.models.generate_content_stream if streamed else client.models.generate_content
        )
        items = create(model="gemini-test", contents=history, config=config)
    if not streamed:
        return items
    stream = ToolCallStream(api)
    for item in items:
        stream.feed(item)
    return stream.final_response()


def first_message(api: Api) -> Any:
    if api == "gemini":
        from google.genai import types

        return types.Content(role="user", parts=[types.Part(text="Plot my points.")])
    return {"role": "user", "content": "Plot my points."}


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("api", API_NAMES)
def test_every_api_streamed_or_not(api: Api, streamed: bool) -> None:
    fake = fake_for(api)
    client = fake.client()
    history: list[Any] = [first_message(api)]
    response = ask(api, client, history, streamed)
    history.extend(assistant_messages(response, api))
    results = GROUP.run_tool_calls(response, None, repair=RepairPolicy())
    history.extend(tool_result_messages(results, api))
    ask(api, client, history, streamed)  # the fake answers 400 to a history the API refuses
    expected = (ArgumentRepair("decoded_string", "$.points"),)
    if api in ("chat.completions", "responses"):
        expected = (ArgumentRepair("unwrapped_arguments"), *expected)
    assert [(r.result_content, r.repairs) for r in results] == [("plotted 2 points", expected)]
    assert check_history(history, api) == []
    assert len(fake.requests) == 2


# -- properties ---------------------------------------------------------------------------

point = st.fixed_dictionaries({"x": st.integers(-5, 5), "y": st.integers(-5, 5)})
valid_arguments = st.fixed_dictionaries(
    {"points": st.lists(point, max_size=3)},
    optional={
        "style": st.one_of(st.none(), point),
        "caption": st.one_of(
            st.text(max_size=8),
            st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
        ),
    },
)


@settings(max_examples=scaled(300), deadline=None)
@given(arguments=valid_arguments, as_text=st.booleans())
def test_repair_never_changes_a_valid_call(arguments: dict[str, Any], as_text: bool) -> None:
    sent = json.dumps(arguments) if as_text else arguments
    plain, repaired = run(sent, None), run(sent)
    assert repaired.repairs == ()
    assert (repaired.fail_reason, repaired.result_content) == (None, plain.result_content)


def mangle(arguments: dict[str, Any], choice: st.DataObject) -> str | dict[str, Any]:
    """`arguments` mangled the ways models do."""
    out = dict(arguments)
    for key in ("points", "style"):
        if out.get(key) is not None and choice.draw(st.booleans(), label=f"encode {key}"):
            out[key] = json.dumps(out[key])
    if choice.draw(st.booleans(), label="dict arguments"):
        return out
    text = json.dumps(out)
    return choice.draw(st.sampled_from([text, json.dumps(text), text + " " + text]), label="text")


@settings(max_examples=scaled(300), deadline=None)
@given(arguments=valid_arguments, data=st.data())
def test_a_repaired_call_validates_and_runs_as_the_intended_one(
    arguments: dict[str, Any], data: st.DataObject
) -> None:
    result = run(mangle(arguments, data))
    assert result.fail_reason is None
    assert result.result_content == run(arguments, None).result_content
    assert Plot.model_validate(arguments)  # what ran is what was meant
