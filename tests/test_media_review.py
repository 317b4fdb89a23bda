"""Images and files on the wire, as the live APIs check them: Anthropic measures its
5 MB image limit (and its 32 MB request) in base64; Anthropic answers 400 to an image
whose bytes are not of the type it is sent as, and Anthropic and Gemini to bytes that
are no image at all. toolwire sends an image as what its bytes are, and notes what no
API can read. The part types take bytes in any buffer, and refuse at once what could
never be sent: empty data, a file path given as a URL.

The requests are sent through the real SDK clients over a mock transport, and read
back from the wire.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx2
import pytest
from inline_snapshot import snapshot

from tests.images import GIF, JPEG, PNG
from tests.test_media_placement import b64, returned
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    FilePart,
    ImagePart,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.exceptions import MediaError
from toolwire.testing import FakeReply, check_history

NOT_FOUND_PAGE = b"<html><body>404 Not Found</body></html>"
"""What a tool that downloads a picture gets from a dead link."""

FIVE_MB = 5 * 1024 * 1024
LARGEST_ANTHROPIC_IMAGE = FIVE_MB // 4 * 3
"""The most bytes whose base64 (4 characters per 3 bytes) fits Anthropic's 5 MB."""


MODELS: dict[str, str] = {"anthropic": "claude-sonnet-4-6", "gemini": "gemini-3-flash-preview"}
"""The model each API's requests name; media go where it takes them (`media="auto"`)."""


def placements(result: Any, api: Api) -> list[tuple[str, str]]:
    report = media_report([result], api, model=MODELS.get(api))
    return [(d.placement, d.reason) for d in report.deliveries]


# -- the wire, through the real SDK clients -----------------------------------------------


def sent_tail(api: Api, result: Any) -> list[dict[str, Any]]:
    """The results of `result`'s turn as the SDK sends them, read back from the wire
    (after the prompt and the model's turn); the whole history passes `check_history`."""
    bodies: list[dict[str, Any]] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        return httpx2.Response(200, json=reply[api])

    http = httpx2.Client(transport=httpx2.MockTransport(handle))
    turn = _model_turn(api)
    history: list[Any] = [
        _prompt(api),
        *assistant_messages(turn, api),
        *tool_result_messages([result], api, model=MODELS[api]),
    ]
    assert check_history(history, api, model=MODELS[api]) == []
    if api == "anthropic":
        from anthropic import Anthropic

        client = Anthropic(api_key="k", http_client=http)
        client.messages.create(model=MODELS[api], max_tokens=64, messages=history)
        return bodies[0]["messages"][2:]
    from google import genai
    from google.genai import types

    gemini = genai.Client(api_key="k", http_options=types.HttpOptions(httpx_client=http))
    gemini.models.generate_content(model=MODELS[api], contents=history)
    return bodies[0]["contents"][2:]


reply: dict[str, Any] = {
    "anthropic": {
        "id": "msg_2",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [{"type": "text", "text": "Seen."}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
    "gemini": {"candidates": [{"content": {"role": "model", "parts": [{"text": "Seen."}]}}]},
}


def _prompt(api: Api) -> Any:
    if api == "gemini":
        return {"role": "user", "parts": [{"text": "Show me."}]}
    return {"role": "user", "content": "Show me."}


def _model_turn(api: Api) -> Any:
    """The model's turn calling `shot` once, with the id call_1, as the SDK parses it."""
    if api == "anthropic":
        from anthropic.types import Message

        return Message.model_validate(
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-6",
                "content": [{"type": "tool_use", "id": "call_1", "name": "shot", "input": {}}],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        )
    from google.genai import types

    call = FakeReply.tool_calls(("shot", {}))
    assert call.calls[0].name == "shot"
    return types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(
                            function_call=types.FunctionCall(id="call_1", name="shot", args={})
                        )
                    ],
                )
            )
        ]
    )


# -- Anthropic's limits, counted as the API counts them -------------------------------------


def test_anthropic_counts_its_5_mb_image_limit_in_base64() -> None:
    """The API measures the base64 text ("image exceeds 5 MB maximum: 5333336 bytes >
    5242880 bytes"): 4 MB of bytes is over it, and the model reads a note instead of the
    whole request failing."""
    largest = PNG + bytes(LARGEST_ANTHROPIC_IMAGE - len(PNG))
    too_large = largest + b"\x00"
    assert len(b64(largest)) == FIVE_MB
    assert placements(returned(ImagePart(data=largest, media_type="image/png")), "anthropic") == [
        ("native", "")
    ]
    done = returned("The photo:", ImagePart(data=too_large, media_type="image/png"))
    assert placements(done, "anthropic") == [("note", "Anthropic takes images of up to 5 MB")]
    assert sent_tail("anthropic", done) == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": "The photo:\n[The tool returned image (image/png, 3.8 MB), which "
                    "could not be shown to you: Anthropic takes images of up to 5 MB.]",
                }
            ],
        }
    ]


def test_anthropic_counts_a_pdf_against_its_32_mb_request_in_base64() -> None:
    """A PDF goes base64-encoded: 25 MB of it is over the 32 MB a request may hold."""
    largest = b"%PDF-1.7\n" + bytes(32 * 1024 * 1024 // 4 * 3 - 9)
    assert placements(returned(FilePart(data=largest, media_type="application/pdf")), "anthropic") == [
        ("native", "")
    ]  # fmt: skip
    too_large = FilePart(data=largest + b"\n", media_type="application/pdf")
    assert placements(returned(too_large), "anthropic") == [
        ("note", "Anthropic takes documents of up to 32 MB")
    ]


# -- an image goes as what its bytes are ---------------------------------------------------


def test_a_mislabelled_image_reaches_anthropic_as_what_its_bytes_are() -> None:
    """Anthropic answers 400 to "The image was specified using the image/jpeg media type,
    but the image appears to be a image/png image" (an MCP server's screenshot, a renamed
    file), and every later request of the conversation carries it: send the bytes' type."""
    done = returned(
        ImagePart(data=PNG, media_type="image/jpeg"), ImagePart(data=JPEG, media_type="image/png")
    )
    assert placements(done, "anthropic") == [("native", ""), ("native", "")]
    assert sent_tail("anthropic", done) == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/png", "data": b64(PNG)},
                        },
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/jpeg", "data": b64(JPEG)},
                        },
                    ],
                }
            ],
        }
    ]  # fmt: skip


def test_a_mislabelled_image_reaches_gemini_as_what_its_bytes_are() -> None:
    """A JPEG labelled png goes as image/jpeg; a GIF labelled png is a GIF, which Gemini
    does not read: the model reads a note."""
    done = returned(
        ImagePart(data=JPEG, media_type="image/png"), ImagePart(data=GIF, media_type="image/png")
    )
    assert placements(done, "gemini") == [
        ("native", ""),
        ("note", "Gemini takes png, jpeg, webp, heic and heif images, not image/gif"),
    ]
    assert sent_tail("gemini", done) == snapshot(
        [
            {
                "parts": [
                    {
                        "functionResponse": {
                            "parts": [
                                {
                                    "inline_data": {
                                        "mime_type": "image/jpeg",
                                        "data": "_9j_2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH_wAALCAAIAAgBAREA_8QAFAABAAAAAAAAAAAAAAAAAAAAAP_EABQQAQAAAAAAAAAAAAAAAAAAAAD_2gAIAQEAAD8AP__Z",
                                    }
                                }
                            ],
                            "id": "call_1",
                            "name": "shot",
                            "response": {
                                "output": "[The tool returned image (image/gif, 42 bytes), which could not be shown to you: Gemini takes png, jpeg, webp, heic and heif images, not image/gif.]"
                            },
                        }
                    }
                ],
                "role": "user",
            }
        ]
    )


def test_a_mislabelled_image_reaches_openai_as_what_its_bytes_are() -> None:
    """The `data:` URL names the bytes' type, on both OpenAI APIs."""
    done = returned(ImagePart(data=PNG, media_type="image/jpeg"))
    url = f"data:image/png;base64,{b64(PNG)}"
    chat: Any = tool_result_messages([done], "chat.completions")[1]
    responses: Any = tool_result_messages([done], "responses")[0]
    assert chat["content"][1] == {"type": "image_url", "image_url": {"url": url}}
    assert responses["output"] == [{"type": "input_image", "detail": "auto", "image_url": url}]


@pytest.mark.parametrize("api", ["anthropic", "gemini"])
def test_bytes_that_are_no_image_are_noted_not_sent(api: Api) -> None:
    """A dead link's HTML page, an image cut short: the API answers 400 ("Could not process
    image", "Provided image is not valid") to the request and to every later one."""
    page = ImagePart(data=NOT_FOUND_PAGE, media_type="image/png")
    cut = ImagePart(data=PNG[:4], media_type="image/png")
    done = returned("The chart:", page, cut)
    reason = (
        "its bytes are not a png, jpeg, gif or webp image, though its media_type says image/png"
    )
    report = media_report([done], api)
    assert [(d.part, d.reason) for d in report.undelivered] == [(page, reason), (cut, reason)]
    notes = [
        f"[The tool returned image (image/png, {size} bytes), which could not be shown to you: "
        f"{reason}.]"
        for size in (len(NOT_FOUND_PAGE), 4)
    ]
    text = "\n".join(["The chart:", *notes])
    if api == "anthropic":
        assert sent_tail(api, done) == [
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": text}],
            }
        ]
    else:
        assert sent_tail(api, done) == [
            {
                "parts": [
                    {
                        "functionResponse": {
                            "id": "call_1",
                            "name": "shot",
                            "response": {"output": text},
                        }
                    }
                ],
                "role": "user",
            }
        ]


@pytest.mark.parametrize("api", ["chat.completions", "responses"])
def test_bytes_that_are_no_image_are_noted_not_sent_on_openai(api: Api) -> None:
    """OpenAI answers 400 ("You uploaded an unsupported image") to such bytes too."""
    page = ImagePart(data=NOT_FOUND_PAGE, media_type="image/png")
    done = returned("The chart:", page)
    reason = (
        "its bytes are not a png, jpeg, gif or webp image, though its media_type says image/png"
    )
    assert [(d.part, d.reason) for d in media_report([done], api).undelivered] == [(page, reason)]
    note = (
        f"[The tool returned image (image/png, {len(NOT_FOUND_PAGE)} bytes), which could not "
        f"be shown to you: {reason}.]"
    )
    messages: Any = tool_result_messages([done], api)
    if api == "chat.completions":
        assert messages == [
            {"role": "tool", "tool_call_id": "call_1", "content": f"The chart:\n{note}"}
        ]
    else:
        assert messages == [
            {"type": "function_call_output", "call_id": "call_1", "output": f"The chart:\n{note}"}
        ]


def test_an_image_whose_type_no_signature_shows_keeps_its_type_on_gemini() -> None:
    """heic and heif have no one signature: a heif goes as given (in the user Content
    after the responses, where Gemini reads it; the SDK sends this Blob's keys as named)."""
    heic = b"\x00\x00\x00\x18ftypheix\x00\x00\x00\x00"
    done = returned(ImagePart(data=heic, media_type="image/heif"))
    assert [p for p, _ in placements(done, "gemini")] == ["message"]
    assert sent_tail("gemini", done)[1] == {
        "parts": [
            {"text": "From shot (call call_1):"},
            {"inlineData": {"data": base64.urlsafe_b64encode(heic).decode(), "mime_type": "image/heif"}},
        ],
        "role": "user",
    }  # fmt: skip


# -- the part types ---------------------------------------------------------------------


@pytest.mark.parametrize("buffer", [bytearray, memoryview], ids=["bytearray", "memoryview"])
def test_bytes_in_any_buffer_are_kept_as_bytes_and_render_on_every_api(buffer: Any) -> None:
    """`data` accepts a bytearray or a memoryview (a file read into a buffer): the part
    keeps a copy as bytes, so a text file renders everywhere (memoryview has no `decode`)
    and the part stays immutable and hashable like any frozen part."""
    text = FilePart(data=buffer(b"a,b\n1,2\n"), media_type="text/csv", filename="t.csv")
    image = ImagePart(data=buffer(PNG), media_type="image/png")
    assert (type(text.data), type(image.data)) == (bytes, bytes)
    assert hash(text) == hash(FilePart(data=b"a,b\n1,2\n", media_type="text/csv", filename="t.csv"))
    as_buffers = returned("table:", text, image)
    as_bytes = returned(
        "table:",
        FilePart(data=b"a,b\n1,2\n", media_type="text/csv", filename="t.csv"),
        ImagePart(data=PNG, media_type="image/png"),
    )
    for api in API_NAMES:
        assert tool_result_messages([as_buffers], api) == tool_result_messages([as_bytes], api)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ImagePart(data=b"", media_type="image/png"), "ImagePart.data is empty"),
        (lambda: FilePart(data=memoryview(b""), media_type="text/plain"), "FilePart.data is empty"),  # pyright: ignore[reportArgumentType]
    ],
)
def test_an_empty_image_or_file_fails_when_made(make: Any, message: str) -> None:
    """Every API answers 400 to an empty image or document (as an empty `data:` URL
    already fails when made)."""
    with pytest.raises(MediaError, match=message):
        make()


@pytest.mark.parametrize(
    "url",
    ["chart.png", "/tmp/report.pdf", "file:///tmp/chart.png", "C:\\charts\\q3.png", " https://x"],
)
def test_a_file_path_given_as_a_url_fails_when_made(url: str) -> None:
    """The API would fetch it (and answer 400): the error says to read the file."""
    with pytest.raises(MediaError) as raised:
        ImagePart(url=url)
    assert str(raised.value) == (
        f"ImagePart.url {url!r} is not a URL an API can fetch: give an https:// URL or a "
        "data: URL, or read a file on this machine with ImagePart.from_path(path)."
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/chart.png",
        "http://example.com/chart",
        "gs://bucket/chart.png",
        "https://generativelanguage.googleapis.com/v1beta/files/abc",
        f"data:image/png;base64,{b64(PNG)}",
    ],
)
def test_urls_an_api_fetches_are_taken(url: str) -> None:
    assert ImagePart(url=url).url == url
