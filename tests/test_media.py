"""Images and files in tool results: the part types, their rendering on each API (whole
outputs), the fallbacks, the report, and the fakes answering like the APIs."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import pytest
from google.genai import errors as genai_errors
from google.genai import types as genai

from tests.images import PNG
from toolwire import aio
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    FilePart,
    HandlerResult,
    ImagePart,
    ResultPart,
    StandardToolCall,
    ToolGroup,
    media_report,
    tool_result_messages,
)
from toolwire.exceptions import MediaError, ToolBatchError
from toolwire.testing import FakeCall, FakeGemini, FakeReply

PDF = b"%PDF-1.4\n%\xe2\xe3\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb" * 8


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# -- the part types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (PNG, "image/png"),
        (b"\xff\xd8\xff\xe0rest", "image/jpeg"),
        (b"GIF89a...", "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00", "image/heic"),
    ],
)
def test_images_are_recognised_by_their_bytes(data: bytes, expected: str) -> None:
    assert ImagePart.from_bytes(data).media_type == expected


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (PDF, None, "application/pdf"),
        (MP3, None, "audio/mpeg"),
        (b"RIFF\x00\x00\x00\x00WAVEfmt ", None, "audio/wav"),
        (b"\x00\x00\x00\x18ftypmp42\x00\x00", None, "video/mp4"),
        (b"plain words", "notes.txt", "text/plain"),
        (b"a,b\n1,2\n", "table.csv", "text/csv"),
    ],
)
def test_files_are_recognised_by_bytes_or_name(
    data: bytes, filename: str | None, expected: str
) -> None:
    part = FilePart.from_bytes(data, filename=filename)
    assert (part.media_type, part.filename) == (expected, filename)


def test_from_path_reads_the_file_and_names_it(tmp_path: Path) -> None:
    (tmp_path / "report.pdf").write_bytes(PDF)
    (tmp_path / "chart.png").write_bytes(PNG)
    assert FilePart.from_path(tmp_path / "report.pdf") == FilePart(
        data=PDF, media_type="application/pdf", filename="report.pdf"
    )
    assert ImagePart.from_path(tmp_path / "chart.png") == ImagePart(
        data=PNG, media_type="image/png"
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FilePart.from_bytes(b"\x00\x01\x02"), "Cannot tell what these 3 bytes are"),
        (lambda: ImagePart(), "takes exactly one source"),
        (lambda: ImagePart(url="https://x/a.png", file_id="file-1"), "gets url and file_id"),
        (lambda: ImagePart(data=PNG), "needs a media_type"),
        (lambda: ImagePart(data=PNG, media_type="image/bmp"), "not an image type any API takes"),
        (lambda: FilePart(data=PNG, media_type="image/png"), "send images as ImagePart"),
        (lambda: FilePart(data=b"PK", media_type="application/zip"), "No API takes"),
        (lambda: FilePart(url=""), "must be a non-empty string"),
        (lambda: FilePart(data="text", media_type="text/plain"), "must be bytes"),  # pyright: ignore[reportArgumentType]
    ],
)
def test_a_part_no_api_could_take_fails_at_once(make: Any, message: str) -> None:
    with pytest.raises(MediaError, match=message):
        make()


# -- rendering, whole outputs ---------------------------------------------------------


class chart(BaseFunctionToolModel[None, None]):
    """Draw the quarter's chart and attach the report."""

    def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
        image = ImagePart.from_bytes(PNG)
        report = FilePart.from_bytes(PDF, filename="q3.pdf")
        return ["Q3 sales, chart and report:", image, report], None


group = ToolGroup.from_list([chart])
CALL = StandardToolCall("function", "call_1", "chart", "{}")


def result() -> Any:
    return group.run_tool_call(CALL, None)


def test_a_result_keeps_its_text_and_its_parts() -> None:
    done = result()
    assert done.result_content == "Q3 sales, chart and report:"
    assert [type(p).__name__ for p in done.result_parts] == ["str", "ImagePart", "FilePart"]


def test_chat_puts_media_in_one_user_message_after_the_tool_messages() -> None:
    assert tool_result_messages([result()], "chat.completions") == [
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": "Q3 sales, chart and report:\n"
            "[The 2 images or files this tool returned follow in the next message.]",
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "From chart (call call_1):"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{b64(PNG)}"}},
                {
                    "type": "file",
                    "file": {
                        "file_data": f"data:application/pdf;base64,{b64(PDF)}",
                        "filename": "q3.pdf",
                    },
                },
            ],
        },
    ]


def test_responses_puts_media_inside_the_output_item() -> None:
    assert tool_result_messages([result()], "responses") == [
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [
                {"type": "input_text", "text": "Q3 sales, chart and report:"},
                {
                    "type": "input_image",
                    "detail": "auto",
                    "image_url": f"data:image/png;base64,{b64(PNG)}",
                },  # fmt: skip
                {
                    "type": "input_file",
                    "file_data": f"data:application/pdf;base64,{b64(PDF)}",
                    "filename": "q3.pdf",
                },  # fmt: skip
            ],
        }
    ]


def test_anthropic_puts_media_inside_the_tool_result() -> None:
    assert tool_result_messages([result()], "anthropic") == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [
                        {"type": "text", "text": "Q3 sales, chart and report:"},
                        {
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": "image/png",
                                "data": b64(PNG),
                            },
                        },  # fmt: skip
                        {
                            "type": "document",
                            "source": {
                                "type": "base64",
                                "media_type": "application/pdf",
                                "data": b64(PDF),
                            },  # fmt: skip
                            "title": "q3.pdf",
                        },
                    ],
                }
            ],
        }
    ]


def test_gemini_puts_media_in_the_function_response_parts() -> None:
    assert tool_result_messages([result()], "gemini", media="native") == [
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="call_1",
                        name="chart",
                        response={"output": "Q3 sales, chart and report:"},
                        parts=[
                            genai.FunctionResponsePart(
                                inline_data=genai.FunctionResponseBlob(
                                    mime_type="image/png", data=PNG
                                )
                            ),
                            genai.FunctionResponsePart(
                                inline_data=genai.FunctionResponseBlob(
                                    mime_type="application/pdf", data=PDF
                                )  # fmt: skip
                            ),
                        ],
                    )
                )
            ],
        )
    ]


def test_media_message_places_them_after_the_results_on_every_api() -> None:
    """Gemini models before 3 need it; every API accepts it."""
    line = "[The 2 images or files this tool returned follow in the next message.]"
    intro = "From chart (call call_1):"
    responses = tool_result_messages([result()], "responses", media="message")
    assert responses[0] == {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": f"Q3 sales, chart and report:\n{line}",
    }
    assert responses[1]["role"] == "user"  # pyright: ignore[reportGeneralTypeIssues]
    anthropic = tool_result_messages([result()], "anthropic", media="message")[0]["content"]
    assert [block["type"] for block in anthropic] == ["tool_result", "text", "image", "document"]  # pyright: ignore[reportIndexIssue, reportArgumentType]
    gemini = tool_result_messages([result()], "gemini", media="message")
    response = (gemini[0].parts or [])[0].function_response
    assert response is not None and response.parts is None
    assert response.response == {"output": f"Q3 sales, chart and report:\n{line}"}
    assert gemini[1] == genai.Content(
        role="user",
        parts=[
            genai.Part(text=intro),
            genai.Part(inline_data=genai.Blob(mime_type="image/png", data=PNG)),
            genai.Part(inline_data=genai.Blob(mime_type="application/pdf", data=PDF)),
        ],
    )


class recording(BaseFunctionToolModel[None, None]):
    """Return a recording of the meeting, and its slides."""

    def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
        return [
            "Recorded.",
            FilePart(data=MP3, media_type="audio/mpeg", filename="meeting.mp3"),
            FilePart(url="https://example.com/slides.pdf"),
        ], None


@pytest.mark.parametrize("api", API_NAMES)
def test_what_an_api_takes_nowhere_is_noted_and_reported(api: Api) -> None:
    done = ToolGroup.from_list([recording]).run_tool_call(
        StandardToolCall("function", "call_9", "recording", "{}"), None
    )
    report = media_report([done], api, media="native")
    placements = [
        (d.part.filename if isinstance(d.part, FilePart) else None, d.placement)
        for d in report.deliveries
    ]
    expected: dict[Api, list[tuple[str | None, str]]] = {
        "chat.completions": [("meeting.mp3", "note"), (None, "note")],  # no audio; no file URLs
        "responses": [("meeting.mp3", "note"), (None, "native")],
        "anthropic": [("meeting.mp3", "note"), (None, "native")],
        "gemini": [("meeting.mp3", "message"), (None, "native")],  # audio after the results
    }
    assert placements == expected[api]
    assert [d.placement for d in report.undelivered] == ["note"] * (2 if api == "chat.completions" else 1 if api != "gemini" else 0)  # fmt: skip
    rendered = str(tool_result_messages([done], api, media="native"))
    if report.undelivered:
        assert "could not be shown to you" in rendered
        assert report.undelivered[0].reason in rendered
    assert "undelivered" not in str(report) and "meeting.mp3" in str(report)


def test_failures_stay_text() -> None:
    class broken(BaseFunctionToolModel[None, None]):
        """Fails."""

        def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
            raise ErrorForLLMToSee("The printer is offline.")

    failed = ToolGroup.from_list([broken]).run_tool_call(
        StandardToolCall("function", "c", "broken", "{}"), None
    )
    assert failed.result_parts == ()
    assert failed.tool_result_block == {
        "type": "tool_result",
        "tool_use_id": "c",
        "content": "The printer is offline.",
        "is_error": True,
    }


def test_handler_result_and_aio_take_parts_too() -> None:
    class shot(aio.BaseFunctionToolModel[None, int]):
        """Take a screenshot."""

        async def model_tool_handler(self, context: None) -> HandlerResult[int]:
            return HandlerResult(result_content=[ImagePart.from_bytes(PNG)], context=1)

    done = asyncio.run(
        aio.ToolGroup.from_list([shot]).run_tool_call(
            StandardToolCall("function", "s", "shot", "{}"), None
        )
    )
    assert done.fail_reason is None
    assert (done.result_content, done.context, done.result_parts) == (
        "",
        1,
        (ImagePart(data=PNG, media_type="image/png"),),
    )


def test_a_list_holding_something_else_is_the_handlers_bug() -> None:
    class sloppy(BaseFunctionToolModel[None, None]):
        """Returns a dict among its parts."""

        def model_tool_handler(self, context: None) -> tuple[list[ResultPart], None]:
            return ["ok", {"oops": 1}], None  # pyright: ignore[reportReturnType]

    bad = ToolGroup.from_list([sloppy])
    call = StandardToolCall("function", "b", "sloppy", "{}")
    with pytest.raises(TypeError, match="a sequence of parts holding a dict"):
        bad.run_tool_call(call, None)
    with pytest.raises(ToolBatchError):
        bad.run_tool_calls([call], None)


def test_media_must_be_auto_native_or_message() -> None:
    with pytest.raises(ValueError, match="media must be 'auto', 'native' or 'message'"):
        tool_result_messages([result()], "anthropic", media="inline")  # pyright: ignore[reportCallIssue, reportArgumentType]


# -- the fakes answer like the APIs -----------------------------------------------------


def gemini_loop(model: str, media: Any) -> str:
    fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("chart")), FakeReply(text="Seen.")])
    client = fake.client()
    config = genai.GenerateContentConfig(tools=group.tool_definitions("gemini"))
    contents: list[Any] = [genai.Content(role="user", parts=[genai.Part(text="Q3?")])]
    response = client.models.generate_content(model=model, contents=contents, config=config)
    contents += [response.candidates[0].content] if response.candidates else []
    contents += tool_result_messages(group.run_tool_calls(response, None), "gemini", media=media)
    return client.models.generate_content(model=model, contents=contents, config=config).text or ""


def test_gemini_before_3_rejects_media_in_function_responses_like_the_api() -> None:
    with pytest.raises(genai_errors.ClientError, match="models before Gemini 3 answer 400"):
        gemini_loop("gemini-2.5-flash", "native")
    assert gemini_loop("gemini-2.5-flash", "message") == "Seen."
    assert gemini_loop("gemini-3-flash-preview", "native") == "Seen."
