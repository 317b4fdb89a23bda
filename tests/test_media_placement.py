"""Where each API gets an image or file it must take inline, and what it takes nowhere:
`data:` URLs placed as the bytes they hold, image types an API does not read (a GIF on
Gemini) noted, and `check_history` and the fakes flagging both."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from google.genai import errors as genai_errors
from google.genai import types as genai
from inline_snapshot import snapshot

from tests.images import GIF, PNG, png
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    ResultPart,
    StandardToolCall,
    ToolGroup,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.exceptions import MediaError
from toolwire.testing import FakeCall, FakeGemini, FakeReply, check_history

PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class shot(BaseFunctionToolModel[list[ResultPart], None]):
    """Return what the test hands in as context."""

    def model_tool_handler(self, context: list[ResultPart]) -> tuple[list[ResultPart], None]:
        return context, None


group = ToolGroup.from_list([shot])
CALL = StandardToolCall("function", "call_1", "shot", "{}")


def returned(*parts: ResultPart) -> Any:
    """The result of a call whose handler returned `parts`."""
    return group.run_tool_call(CALL, list(parts))


def dumped(messages: list[Any]) -> list[Any]:
    """Messages as plain data, google-genai objects included, for whole comparisons."""
    return [
        m.model_dump(mode="json", exclude_none=True) if hasattr(m, "model_dump") else m
        for m in messages
    ]


def placements(result: Any, api: Api, media: Any = "native") -> list[tuple[str, str]]:
    return [(d.placement, d.reason) for d in media_report([result], api, media=media).deliveries]


# -- data: URLs: read when the part is made ---------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        f"data:image/png;base64,{b64(PNG)}",
        f"DATA:Image/PNG ; name=chart.png ; BASE64,{b64(PNG)[:10]}\n{b64(PNG)[10:].rstrip('=')}",
        f"data:image/png,{quote_from_bytes(PNG)}",  # percent-encoded (RFC 2397)
        f"data:image/png;base64,{quote_from_bytes(b64(PNG).encode(), safe='')}",
    ],
    ids=["base64", "odd-spelling", "percent-encoded", "percent-encoded-base64"],
)
def test_every_rfc_2397_spelling_of_an_image_reaches_anthropic_as_its_bytes(url: str) -> None:
    """Base64 (with whitespace, no padding, any case, parameters) and percent-encoding."""
    assert tool_result_messages([returned(ImagePart(url=url))], "anthropic") == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [
                        {
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": "image/png",
                                "data": b64(PNG),
                            },
                        }
                    ],
                }
            ],
        }
    ]


def test_a_data_url_text_file_and_a_typeless_image_url_take_the_rfc_defaults() -> None:
    """No type: text/plain for a file (RFC 2397), the given media_type for an image; text
    in another charset reaches the API as UTF-8."""
    text = FilePart(url="data:,Hello%2C%20World", filename="greeting.txt")
    image = ImagePart(url=f"data:;base64,{b64(PNG)}", media_type="image/png")
    latin = FilePart(url="data:text/plain;charset=ISO-8859-1,caf%E9")
    assert tool_result_messages([returned(text, image, latin)], "anthropic") == snapshot(
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": [
                            {
                                "type": "document",
                                "source": {
                                    "type": "text",
                                    "media_type": "text/plain",
                                    "data": "Hello, World",
                                },
                                "title": "greeting.txt",
                            },
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                },
                            },
                            {
                                "type": "document",
                                "source": {
                                    "type": "text",
                                    "media_type": "text/plain",
                                    "data": "café",
                                },
                            },
                        ],
                    }
                ],
            }
        ]
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: ImagePart(url="data:image/png;base64"),
            snapshot(
                "ImagePart.url is a data: URL that cannot be read: it has no comma before its data. Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: ImagePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: ImagePart(url="data:image/png;base64,iVBOR*w0KGg="),
            snapshot(
                "ImagePart.url is a data: URL that cannot be read: its data is not base64 (a character outside it, or padding inside). Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: ImagePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: ImagePart(url="data:image/png;base64,iVBORw0KG"),
            snapshot(
                "ImagePart.url is a data: URL that cannot be read: its base64 data has a length no base64 text can have. Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: ImagePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: FilePart(url="data:application/pdf;base64,"),
            snapshot(
                "FilePart.url is a data: URL that cannot be read: it holds no data. Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: FilePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: ImagePart(url=f"data:png;base64,{b64(PNG)}"),
            snapshot(
                "ImagePart.url is a data: URL that cannot be read: 'png' is not a media type (type/subtype). Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: ImagePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: FilePart(url="data:text/plain;charset=klingon,qapla%27"),
            snapshot(
                "FilePart.url is a data: URL that cannot be read: its charset 'klingon' is not one Python knows. Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: FilePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: FilePart(url="data:text/csv;charset=utf-8,caf%E9"),
            snapshot(
                "FilePart.url is a data: URL that cannot be read: its text is not utf-8, the charset it names. Write it as data:<media type>;base64,<the bytes in base64> (RFC 2397), or give the bytes themselves: FilePart.from_bytes(data, media_type)."
            ),
        ),
        (
            lambda: ImagePart(url=f"data:;base64,{b64(PNG)}"),
            snapshot(
                "ImagePart.url is a data: URL that names no media type (RFC 2397 reads it as text/plain). Write data:image/png;base64,... (or the image's own type), or pass media_type."
            ),
        ),
        (
            lambda: ImagePart(url=f"data:image/png;base64,{b64(PNG)}", media_type="image/jpeg"),
            snapshot(
                "ImagePart.url is a data: URL of type 'image/png', but media_type is 'image/jpeg'. Give one type: drop media_type, or fix the URL."
            ),
        ),
        (
            lambda: ImagePart(url=f"data:image/bmp;base64,{b64(b'BM....')}"),
            snapshot(
                "ImagePart media_type 'image/bmp' is not an image type any API takes (image/gif, image/heic, image/heif, image/jpeg, image/png, image/webp). Convert the image, or send other files as FilePart."
            ),
        ),
        (
            lambda: FilePart(url=f"data:image/png;base64,{b64(PNG)}"),
            snapshot(
                "FilePart has the image type 'image/png': send images as ImagePart, which every API renders as an image."
            ),
        ),
    ],
    ids=[
        "no-comma",
        "bad-base64",
        "cut-base64",
        "empty",
        "not-a-type",
        "unknown-charset",
        "not-its-charset",
        "no-image-type",
        "two-types",
        "bmp",
        "image-as-file",
    ],
)
def test_a_data_url_no_api_could_read_fails_when_the_part_is_made(make: Any, message: str) -> None:
    """The message says what is wrong and what to write instead; nothing fails later."""
    with pytest.raises(MediaError) as raised:
        make()
    assert str(raised.value) == message


# -- data: URLs: placed as bytes ----------------------------------------------------------


def test_anthropic_gets_a_data_url_image_as_a_base64_source() -> None:
    """A URL source is one Anthropic fetches; the bytes go in a base64 source."""
    done = returned("shot:", ImagePart(url=f"data:image/png;base64,{b64(PNG)}"))
    assert tool_result_messages([done], "anthropic") == snapshot(
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": [
                            {"type": "text", "text": "shot:"},
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGMQaPgAAAIkAYFvkeRkAAAAAElFTkSuQmCC",
                                },
                            },
                        ],
                    }
                ],
            }
        ]
    )


def test_gemini_gets_a_data_url_image_as_inline_data() -> None:
    """A data: URL is no file URI: inside the function response, or in the user Content
    after it with media="message", it is a blob."""
    done = returned("shot:", ImagePart(url=f"data:image/png;base64,{b64(PNG)}"))
    assert tool_result_messages([done], "gemini", media="native") == [
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="call_1",
                        name="shot",
                        response={"output": "shot:"},
                        parts=[
                            genai.FunctionResponsePart(
                                inline_data=genai.FunctionResponseBlob(
                                    mime_type="image/png", data=PNG
                                )
                            )
                        ],
                    )
                )
            ],
        )
    ]
    assert tool_result_messages([done], "gemini", media="message")[1] == genai.Content(
        role="user",
        parts=[
            genai.Part(text="From shot (call call_1):"),
            genai.Part(inline_data=genai.Blob(mime_type="image/png", data=PNG)),
        ],
    )


def test_openai_gets_a_data_url_file_as_file_data() -> None:
    """Chat delivers it (it takes file data, not file URLs); Responses sends file_data,
    not a file_url."""
    done = returned(FilePart(url=f"data:application/pdf;base64,{b64(PDF)}", filename="q3.pdf"))
    assert dumped(tool_result_messages([done], "chat.completions")) == snapshot(
        [
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": "[The image or file this tool returned follows in the next message.]",
            },
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "From shot (call call_1):"},
                    {
                        "type": "file",
                        "file": {
                            "file_data": "data:application/pdf;base64,JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZz4+ZW5kb2JqCnRyYWlsZXI8PC9Sb290IDEgMCBSPj4KJSVFT0YK",
                            "filename": "q3.pdf",
                        },
                    },
                ],
            },
        ]
    )
    assert dumped(tool_result_messages([done], "responses")) == snapshot(
        [
            {
                "type": "function_call_output",
                "call_id": "call_1",
                "output": [
                    {
                        "type": "input_file",
                        "file_data": "data:application/pdf;base64,JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZz4+ZW5kb2JqCnRyYWlsZXI8PC9Sb290IDEgMCBSPj4KJSVFT0YK",
                        "filename": "q3.pdf",
                    }
                ],
            }
        ]
    )


@pytest.mark.parametrize("media", ["native", "message"])
def test_a_data_url_part_is_placed_exactly_as_its_bytes_on_every_api(media: Any) -> None:
    """Same messages, same report, for a data: URL (base64 or percent-encoded) and the
    bytes it holds."""
    as_urls = returned(
        "shot:",
        ImagePart(url=f"data:image/png,{quote_from_bytes(PNG)}"),
        FilePart(url=f"data:application/pdf;base64,{b64(PDF)}", filename="q3.pdf"),
    )
    as_bytes = returned(
        "shot:",
        ImagePart(data=PNG, media_type="image/png"),
        FilePart(data=PDF, media_type="application/pdf", filename="q3.pdf"),
    )
    for api in API_NAMES:
        assert dumped(tool_result_messages([as_urls], api, media=media)) == dumped(
            tool_result_messages([as_bytes], api, media=media)
        ), api
        assert placements(as_urls, api, media) == placements(as_bytes, api, media), api


def test_a_data_url_gets_the_type_and_size_checks_bytes_get() -> None:
    """A heic is noted on OpenAI and Anthropic, a GIF on Gemini, an image over 5 MB on
    Anthropic: by data: URL exactly as by bytes."""
    big = png(padding=5 * 1024 * 1024)
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"
    as_urls = returned(
        ImagePart(url=f"data:image/heic;base64,{b64(heic)}"),
        ImagePart(url=f"data:image/gif;base64,{b64(GIF)}"),
        ImagePart(url=f"data:image/png;base64,{b64(big)}"),
    )
    as_bytes = returned(
        ImagePart(data=heic, media_type="image/heic"),
        ImagePart(data=GIF, media_type="image/gif"),
        ImagePart(data=big, media_type="image/png"),
    )
    report = {api: placements(as_urls, api) for api in API_NAMES}
    assert report == {api: placements(as_bytes, api) for api in API_NAMES}
    assert report == snapshot(
        {
            "chat.completions": [
                ("note", "OpenAI takes png, jpeg, gif and webp images, not image/heic"),
                ("message", "Chat Completions tool messages take text only"),
                ("message", "Chat Completions tool messages take text only"),
            ],
            "responses": [
                ("note", "OpenAI takes png, jpeg, gif and webp images, not image/heic"),
                ("native", ""),
                ("native", ""),
            ],
            "anthropic": [
                ("note", "Anthropic takes jpeg, png, gif and webp images, not image/heic"),
                ("native", ""),
                ("note", "Anthropic takes images of up to 5 MB"),
            ],
            "gemini": [
                (
                    "message",
                    "a function response's parts take images, PDFs and plain text, not image/heic",
                ),
                ("note", "Gemini takes png, jpeg, webp, heic and heif images, not image/gif"),
                ("native", ""),
            ],
        }
    )
    note = dumped(tool_result_messages([as_urls], "anthropic"))[0]["content"][0]["content"][0]
    assert note == snapshot(
        {
            "type": "text",
            "text": "[The tool returned image (image/heic, 16 bytes), which could not be shown to you: Anthropic takes jpeg, png, gif and webp images, not image/heic.]",
        }
    )


# -- image types an API does not read ---------------------------------------------------


def test_gemini_notes_a_gif_instead_of_sending_it() -> None:
    """Gemini reads png, jpeg, webp, heic and heif: a GIF is reported undelivered and the
    model reads a note, in the function response, with either media placement."""
    done = returned("chart:", ImagePart.from_bytes(GIF))
    note = (
        "[The tool returned image (image/gif, 42 bytes), which could not be shown to you: "
        "Gemini takes png, jpeg, webp, heic and heif images, not image/gif.]"
    )
    expected = [
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="call_1", name="shot", response={"output": f"chart:\n{note}"}
                    )
                )
            ],
        )
    ]
    for media in ("native", "message"):
        assert tool_result_messages([done], "gemini", media=media) == expected
        report = media_report([done], "gemini", media=media)
        assert [(d.part, d.reason) for d in report.undelivered] == [
            (
                ImagePart(data=GIF, media_type="image/gif"),
                "Gemini takes png, jpeg, webp, heic and heif images, not image/gif",
            )
        ]


def test_an_image_type_an_api_does_not_read_is_noted_on_every_api_however_it_is_given() -> None:
    """By bytes, by a URL whose extension names it, or by a file id with its type."""
    done = returned(
        ImagePart(data=GIF, media_type="image/gif"),
        ImagePart(url="https://example.com/anim.gif"),
        ImagePart(file_id="files/abc123", media_type="image/gif"),
        ImagePart(url="https://example.com/photo.heic"),
    )
    got = {api: [p for p, _ in placements(done, api)] for api in API_NAMES}
    assert got == snapshot(
        {
            "chat.completions": ["message", "message", "note", "note"],
            "responses": ["native", "native", "native", "note"],
            "anthropic": ["native", "native", "native", "note"],
            "gemini": ["note", "note", "note", "message"],
        }
    )


# -- check_history and the fakes ----------------------------------------------------------


def gemini_history(*results: Any) -> list[Any]:
    return [
        genai.Content(role="user", parts=[genai.Part(text="Draw it.")]),
        genai.Content(
            role="model",
            parts=[genai.Part(function_call=genai.FunctionCall(id="call_1", name="shot", args={}))],
        ),
        *results,
    ]


def test_check_history_flags_an_image_gemini_does_not_read() -> None:
    """A GIF in the user Content after the responses, or in a function response; what
    toolwire writes for a GIF now passes."""
    old = gemini_history(
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="call_1",
                        name="shot",
                        response={"output": "chart:"},
                        parts=[
                            genai.FunctionResponsePart.from_bytes(data=GIF, mime_type="image/gif")
                        ],
                    )
                ),
                genai.Part(text="From shot (call call_1):"),
                genai.Part(inline_data=genai.Blob(mime_type="image/gif", data=GIF)),
            ],
        )
    )
    problems = check_history(old, "gemini", model="gemini-3-pro-preview")
    assert [(p.index, p.message) for p in problems] == snapshot(
        [
            (
                2,
                "contents[2] (user): the functionResponse for 'shot' has an image of type 'image/gif'; Gemini reads png, jpeg, webp, heic and heif images (convert it, e.g. to png)",
            ),
            (
                2,
                "contents[2] (user) has an image of type 'image/gif'; Gemini reads png, jpeg, webp, heic and heif images (convert it, e.g. to png)",
            ),
        ]
    )
    for media in ("native", "message"):
        now = tool_result_messages(
            [returned("chart:", ImagePart.from_bytes(GIF))], "gemini", media=media
        )
        assert check_history(gemini_history(*now), "gemini", model="gemini-3-pro-preview") == []


def test_check_history_flags_a_data_url_where_the_api_fetches_a_url() -> None:
    """Anthropic URL sources and Gemini file URIs; what toolwire writes for a data: URL
    now passes on every API."""
    url = f"data:image/png;base64,{b64(PNG)}"
    anthropic: list[dict[str, Any]] = [
        {"role": "user", "content": "Draw it."},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "call_1", "name": "shot", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": [{"type": "image", "source": {"type": "url", "url": url}}],
                },
                {
                    "type": "document",
                    "source": {"type": "url", "url": "data:application/pdf,%25PDF"},
                },
            ],
        },
    ]
    gemini = gemini_history(
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="call_1",
                        name="shot",
                        response={"output": ""},
                        parts=[
                            genai.FunctionResponsePart.from_uri(file_uri=url, mime_type="image/png")
                        ],
                    )
                ),
                genai.Part(file_data=genai.FileData(file_uri=url, mime_type="image/png")),
            ],
        )
    )
    assert [p.message for p in check_history(anthropic, "anthropic")] == snapshot(
        [
            "messages[2] (user) has an image whose URL source is a data: URL; Anthropic fetches URL sources itself: send the bytes as a base64 source",
            "messages[2] (user) has a document whose URL source is a data: URL; Anthropic fetches URL sources itself: send the bytes as a base64 source",
        ]
    )
    assert [p.message for p in check_history(gemini, "gemini")] == snapshot(
        [
            "contents[2] (user): the functionResponse for 'shot' has file data whose URI is a data: URL, which is no file URI; send the bytes as inline data",
            "contents[2] (user) has file data whose URI is a data: URL, which is no file URI; send the bytes as inline data",
        ]
    )
    done = returned(ImagePart(url=url), FilePart(url=f"data:application/pdf;base64,{b64(PDF)}"))
    assert (
        check_history([*anthropic[:2], *tool_result_messages([done], "anthropic")], "anthropic")
        == []
    )
    assert check_history(gemini_history(*tool_result_messages([done], "gemini")), "gemini") == []


def test_the_gemini_fake_answers_400_to_a_gif_like_the_api() -> None:
    """And takes the note toolwire writes in its place."""
    client = FakeGemini().client()
    contents = [
        genai.Content(
            role="user",
            parts=[
                genai.Part(text="What is in it?"),
                genai.Part(inline_data=genai.Blob(mime_type="image/gif", data=GIF)),
            ],
        )
    ]
    with pytest.raises(genai_errors.ClientError, match="an image of type 'image/gif'"):
        client.models.generate_content(model="gemini-3-flash-preview", contents=contents)

    fake = FakeGemini(script=[FakeReply.tool_calls(FakeCall("shot")), FakeReply(text="Seen.")])
    client = fake.client()
    config = genai.GenerateContentConfig(tools=group.tool_definitions("gemini"))
    history: list[Any] = [genai.Content(role="user", parts=[genai.Part(text="Draw it.")])]
    model = "gemini-3-flash-preview"
    response = client.models.generate_content(model=model, contents=history, config=config)
    history += assistant_messages(response, "gemini")
    results = group.run_tool_calls(response, ["chart:", ImagePart.from_bytes(GIF)])
    history += tool_result_messages(results, "gemini")
    answer = client.models.generate_content(model=model, contents=history, config=config)
    assert answer.text == "Seen."
