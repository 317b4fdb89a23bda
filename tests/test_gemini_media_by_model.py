"""Gemini media placement by model: `media="auto"` puts a tool's images in
the function response for Gemini 3 and later, and in a user Content after the
responses for earlier models (which answer 400 to media in function responses) and
for an unnamed model; the explicit values, and the default ("native", as DESIGN
states), stay as they were. Through the real
google-genai client against `FakeGemini`, which refuses what the model refuses."""

from __future__ import annotations

from typing import Any, cast

import pytest
from google.genai import errors as genai_errors
from google.genai import types as genai

from tests.images import PNG
from toolwire.core import (
    BaseFunctionToolModel,
    ImagePart,
    MediaPlacement,
    ResultPart,
    StandardToolCall,
    ToolGroup,
    media_report,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeGemini, FakeReply, check_history

OLD = "gemini-2.5-flash"
NEW = "gemini-3-flash-preview"


class chart(BaseFunctionToolModel[None, None]):
    """Draw the quarter's chart."""

    def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
        return ["Q3 sales:", ImagePart.from_bytes(PNG)], None


group = ToolGroup.from_list([chart])
INSIDE = [
    {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "chart",
                    "response": {"output": "Q3 sales:"},
                    "parts": [{"inlineData": {"mimeType": "image/png", "data": "PNG"}}],
                }
            }
        ],
    }
]
"""The results as sent when the image is inside the function response (data elided)."""
AFTER = [
    {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "chart",
                    "response": {
                        "output": "Q3 sales:\n[The image or file this tool returned follows "
                        "in the next message.]"
                    },
                }
            }
        ],
    },
    {
        "role": "user",
        "parts": [
            {"text": "From chart (function call 1):"},
            {"inlineData": {"mimeType": "image/png", "data": "PNG"}},
        ],
    },
]
"""The results as sent when the image follows in a user Content (data elided)."""


def sent_results(called: str, /, **placement: Any) -> list[Any]:
    """The tool results of one call of `chart`, as the google-genai client sends them to
    the model `called` (the fake answers 400 to what that model refuses), rendered with
    `placement` (`media=`, `model=`)."""
    fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("chart")), FakeReply(text="Seen.")])
    client = fake.client()
    config = genai.GenerateContentConfig(tools=group.tool_definitions("gemini"))
    contents: list[Any] = [genai.Content(role="user", parts=[genai.Part(text="Q3?")])]
    response = client.models.generate_content(model=called, contents=contents, config=config)
    assert response.candidates and response.candidates[0].content
    contents.append(response.candidates[0].content)
    results = group.run_tool_calls(response, None)
    contents += tool_result_messages(results, "gemini", **placement)
    answer = client.models.generate_content(model=called, contents=contents, config=config)
    assert answer.text == "Seen."
    return _elided(fake.requests[-1]["contents"][2:])


def _elided(value: Any) -> Any:
    """`value` with camelCase keys (the SDK sends some snake_case ones) and every inline
    data's base64 replaced by "PNG"."""
    if isinstance(value, dict):
        fields = cast("dict[str, Any]", value)
        items = {_camel(key): _elided(item) for key, item in fields.items()}
        return {**items, "data": "PNG"} if "mimeType" in items and "data" in items else items
    if isinstance(value, list):
        return [_elided(item) for item in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word.title() for word in rest)


def test_auto_puts_media_inside_for_gemini_3_and_after_for_earlier_models() -> None:
    assert sent_results(NEW, media="auto", model=NEW) == INSIDE
    assert sent_results(OLD, media="auto", model=OLD) == AFTER


def test_auto_reads_the_model_from_the_response_the_results_answer() -> None:
    """`response.model_version` names the model that made the calls."""
    for model, expected in ((NEW, INSIDE), (OLD, AFTER)):
        fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("chart"))])
        response = fake.client().models.generate_content(model=model, contents="Q3?")
        assert response.model_version == model
        results = group.run_tool_calls(response, None)
        rendered = tool_result_messages(
            results, "gemini", media="auto", model=response.model_version
        )
        wire = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in rendered]
        assert _elided(wire) == expected


def test_auto_without_a_model_is_what_every_gemini_model_takes() -> None:
    assert sent_results(OLD, media="auto") == AFTER
    assert sent_results(NEW, media="auto") == AFTER


def test_the_default_stays_native() -> None:
    """The contract's default: inside the results, whatever `model` says."""
    assert sent_results(NEW) == INSIDE
    assert sent_results(NEW, model=OLD) == INSIDE


def test_the_explicit_placements_are_unchanged() -> None:
    assert sent_results(NEW, media="native") == INSIDE
    assert sent_results(NEW, media="message", model=NEW) == AFTER
    assert sent_results(OLD, media="message") == AFTER
    with pytest.raises(genai_errors.ClientError, match="models before Gemini 3 answer 400"):
        sent_results(OLD, media="native", model=OLD)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gemini-3-pro-preview", "native"),
        ("gemini-3.1-pro-preview", "native"),
        ("models/gemini-3-flash-preview", "native"),
        ("projects/p/locations/global/publishers/google/models/gemini-3-pro-preview", "native"),
        ("gemini-12-ultra", "native"),
        ("gemini-2.5-flash", "message"),
        ("models/gemini-2.5-pro", "message"),
        ("gemini-2.0-flash-001", "message"),
        ("gemini-1.5-pro", "message"),
        ("gemini-flash-latest", "message"),
        ("tunedModels/my-model-7", "message"),
        ("", "message"),
        (None, "message"),
    ],
)
def test_auto_reads_the_version_in_the_model_name(model: str | None, expected: str) -> None:
    done = group.run_tool_call(StandardToolCall("function", "call_1", "chart", "{}"), None)
    report = media_report([done], "gemini", media="auto", model=model)
    assert [d.placement for d in report.deliveries] == [expected]


@pytest.mark.parametrize("media", ["auto", "native"])
def test_auto_is_native_on_the_other_apis_whatever_the_model(media: MediaPlacement) -> None:
    done = group.run_tool_call(StandardToolCall("function", "call_1", "chart", "{}"), None)
    for api in ("responses", "anthropic"):
        for model in (None, "gemini-2.5-flash", "claude-sonnet-4-6"):
            report = media_report([done], api, media=media, model=model)
            assert [d.placement for d in report.deliveries] == ["native"]
    assert tool_result_messages([done], "anthropic", model=None) == tool_result_messages(
        [done], "anthropic", media="native"
    )


def test_check_history_knows_the_rule_for_the_model() -> None:
    fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("chart"))])
    response = fake.client().models.generate_content(model=OLD, contents="Q3?")
    assert response.candidates and response.candidates[0].content
    turn = [response.candidates[0].content]
    results = group.run_tool_calls(response, None)
    inside = [*turn, *tool_result_messages(results, "gemini", media="native")]
    assert [p.message for p in check_history(inside, "gemini", model=OLD)] == [
        "contents[1] (user): the functionResponse for 'chart' has media parts, which "
        "'gemini-2.5-flash' does not take (models before Gemini 3 answer 400: "
        "`function_response.parts` is not supported for this model); send them in a user "
        "Content after the function responses: "
        'tool_result_messages(..., media="auto", model=<the model>) does so for these models'
    ]
    auto = [*turn, *tool_result_messages(results, "gemini", media="auto", model=OLD)]
    assert check_history(auto, "gemini", model=OLD) == []
