"""What a result's bytes say, read before they are sent: a text file in the charset its
media type names (issue 24, item 7), and an image whole enough to decode (item E).

A Latin-1 CSV reaches every API as the text it is, never garbled; bytes that are not in
their charset, and images cut short or corrupt, are noted as undelivered with the reason
in the media report, on every API. Media types are read as RFC 9110 writes them:
parameters and any case.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from inline_snapshot import snapshot

import toolwire._media
from tests.images import GIF, JPEG, PNG, WEBP, jpeg, png
from tests.test_media_placement import dumped, placements, returned
from toolwire._api import API_NAMES, Api
from toolwire._image_bytes import ImageHeader, read_image
from toolwire.core import (
    FilePart,
    ImagePart,
    MediaPlacement,
    media_report,
    tool_result_messages,
)
from toolwire.exceptions import MediaError
from toolwire.testing import check_history

# -- item 7: text in its charset ---------------------------------------------------------

LATIN_1_CSV = "city;price\nMünchen;3€\nCafé;2½\n".replace("€", "E").encode("latin-1")


def test_a_latin_1_csv_reaches_every_api_as_its_text() -> None:
    done = returned("prices:", FilePart.from_bytes(LATIN_1_CSV, "text/csv; charset=ISO-8859-1"))
    text = "city;price\nMünchen;3E\nCafé;2½\n"
    assert done.result_parts[1].media_type == "text/csv; charset=iso-8859-1"
    got = {api: dumped(tool_result_messages([done], api)) for api in API_NAMES}
    assert got["chat.completions"][1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "From shot (call call_1):"},
            {"type": "text", "text": text},
        ],
    }
    assert got["responses"][0]["output"][1] == {"type": "input_text", "text": text}
    assert got["anthropic"][0]["content"][0]["content"][1] == {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": text},
    }
    moved = got["gemini"][1]["parts"][1]["inline_data"]
    assert moved["mime_type"] == "text/csv"
    # the Gemini blob holds the UTF-8 bytes of the same text:
    gemini = tool_result_messages([done], "gemini")
    assert gemini[1].parts[1].inline_data.data.decode("utf-8") == text  # type: ignore[union-attr]
    for api in API_NAMES:
        assert media_report([done], api).undelivered == ()


@pytest.mark.parametrize(
    ("media_type", "data", "reason"),
    [
        (
            "text/csv",
            LATIN_1_CSV,
            "its bytes are not UTF-8 text; name their charset in its media_type (e.g. "
            "'text/csv; charset=windows-1252')",
        ),
        (
            "text/plain; charset=utf-8",
            LATIN_1_CSV,
            "its bytes are not utf-8 text, the charset its media_type names",
        ),
        (
            'TEXT/Plain; CHARSET="Shift_JIS"',
            b"\x81\x39 not shift_jis",
            "its bytes are not shift_jis text, the charset its media_type names",
        ),
    ],
)
def test_text_bytes_not_in_their_charset_are_noted_on_every_api(
    media_type: str, data: bytes, reason: str
) -> None:
    """Never garbled: the model reads a note, and the media report says why."""
    done = returned("log:", FilePart(data=data, media_type=media_type, filename="log.txt"))
    for api in API_NAMES:
        assert placements(done, api) == [("note", reason)], api
        rendered = json.dumps(dumped(tool_result_messages([done], api)), ensure_ascii=False)
        assert f"could not be shown to you: {reason}.]" in rendered, api
        assert "\ufffd" not in rendered, api


def test_utf_8_text_with_and_without_its_charset_is_the_same_text() -> None:
    text = "naïve — ok\n"
    plain = returned(FilePart(data=text.encode(), media_type="text/plain"))
    named = returned(FilePart(data=text.encode(), media_type="text/plain;charset=UTF-8"))
    for api in API_NAMES:
        assert tool_result_messages([named], api) == tool_result_messages([plain], api), api


# -- media types as RFC 9110 writes them (the sibling) -----------------------------------


def test_media_types_are_read_in_any_case_and_with_parameters() -> None:
    assert ImagePart(data=PNG, media_type="Image/PNG").media_type == "image/png"
    assert ImagePart(data=PNG, media_type="image/png; name=chart").media_type == "image/png"
    pdf = FilePart(data=b"%PDF-1.4\n%%EOF\n", media_type="Application/PDF; version=1.4")
    assert pdf.media_type == "application/pdf"
    messages: Any = tool_result_messages([returned(pdf)], "anthropic")
    block = messages[0]["content"][0]["content"][0]
    assert block["source"]["type"] == "base64"  # a PDF, not its bytes read as text
    assert FilePart(url="https://x.test/a", media_type="TEXT/HTML").media_type == "text/html"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: ImagePart(data=PNG, media_type="png"),
            "ImagePart.media_type 'png' is not a media type: write type/subtype, such as "
            "'image/png' or 'text/csv; charset=utf-8'.",
        ),
        (
            lambda: FilePart(data=b"x", media_type="text/plain; charset=klingon"),
            "FilePart.media_type 'text/plain; charset=klingon' names the charset 'klingon', "
            "which Python does not know: name the text's encoding as Python's codecs do "
            "('utf-8', 'iso-8859-1', 'windows-1252', 'shift_jis'...).",
        ),
        *(
            (
                lambda codec=codec: FilePart(data=b"x", media_type=f"text/csv; charset={codec}"),
                f"FilePart.media_type 'text/csv; charset={codec}' names the charset "
                f"'{codec}', a Python codec that is no text encoding (it decodes no bytes "
                "to text): name the text's encoding ('utf-8', 'iso-8859-1', "
                "'windows-1252', 'shift_jis'...), or give the bytes it decodes to.",
            )
            for codec in ("base64", "rot13", "zlib", "undefined")
        ),
    ],
)
def test_a_media_type_that_cannot_be_read_fails_when_the_part_is_made(
    make: Any, message: str
) -> None:
    with pytest.raises(MediaError) as error:
        make()
    assert str(error.value) == message


# -- item E: images whole enough to decode -----------------------------------------------


def test_the_header_gives_each_image_s_type_and_size() -> None:
    assert [read_image(image) for image in (png(640, 3), jpeg(17, 2000), GIF, WEBP)] == [
        ImageHeader("image/png", 640, 3),
        ImageHeader("image/jpeg", 17, 2000),
        ImageHeader("image/gif", 1, 1),
        ImageHeader("image/webp", 1, 1),
    ]


BROKEN = [
    (PNG[:8], "image/png", "its PNG data is cut short (it ends before its IEND chunk)"),
    (PNG[:-3], "image/png", "its PNG data is cut short (inside its 'IEND' chunk)"),
    (
        PNG[:45] + bytes([PNG[45] ^ 0xFF]) + PNG[46:],
        "image/png",
        "its PNG 'IDAT' chunk fails its CRC check (the file is corrupt)",
    ),
    (
        b"\x89PNG\r\n\x1a\n" + bytes(40),
        "image/png",
        "its PNG data does not start with an IHDR chunk (it is corrupt)",
    ),
    (JPEG[:-2], "image/jpeg", "its JPEG data is cut short (it has no end-of-image marker)"),
    (JPEG[:30], "image/jpeg", "its JPEG data is cut short (inside a segment)"),
    (
        bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9"),
        "image/jpeg",
        "its JPEG data ends before its image data (it holds no scan)",
    ),
    (GIF[:-1], "image/gif", "its GIF data is cut short (it has no trailer)"),
    (WEBP[:-4], "image/webp", "its WebP data is cut short (shorter than its RIFF header says)"),
]


@pytest.mark.parametrize(("data", "media_type", "reason"), BROKEN)
def test_an_image_that_does_not_decode_is_noted_on_every_api(
    data: bytes, media_type: str, reason: str
) -> None:
    """By bytes and by `data:` URL alike; a note in its place, the reason in the report."""
    assert read_image(data) == reason
    url = f"data:{media_type};base64,{base64.b64encode(data).decode()}"
    for part in (ImagePart(data=data, media_type=media_type), ImagePart(url=url)):
        done = returned("shot:", part)
        for api in API_NAMES:
            if api == "gemini" and media_type == "image/gif":
                continue  # Gemini reads no gif at all: noted for that first
            assert placements(done, api) == [("note", reason)], api


def test_an_image_that_decodes_is_sent_and_checks_clean_on_every_api() -> None:
    done = returned("shot:", ImagePart.from_bytes(png(3, 2)), ImagePart.from_bytes(JPEG))
    for api in API_NAMES:
        assert media_report([done], api).undelivered == (), api


@pytest.mark.parametrize("media", ["native", "message"])
@pytest.mark.parametrize("api", API_NAMES)
def test_each_image_s_bytes_are_checked_once_however_often_it_is_placed(
    api: Api, media: MediaPlacement, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big PNG's chunk CRCs take milliseconds: each image part's bytes are checked once,
    for its place in the result and in the message after the results, its render, a
    second render and the media report; by bytes and by `data:` URL; a broken one keeps
    its note every time. On Anthropic, also in a request of more than 20 images, whose
    size rule counts them first."""
    checked: list[bytes] = []

    def counted(data: bytes) -> ImageHeader | str:
        checked.append(data)
        return read_image(data)

    monkeypatch.setattr(toolwire._media, "read_image", counted)
    broken = PNG[:-3]
    images = [
        png(3, 2),
        png(5, 5),
        broken,
        *(png(9, 9) for _ in range(21 if api == "anthropic" else 0)),
    ]
    done = returned(
        "shots:",
        ImagePart.from_bytes(images[0]),
        ImagePart(url=f"data:image/png;base64,{base64.b64encode(images[1]).decode()}"),
        *(ImagePart(data=image, media_type="image/png") for image in images[2:]),
    )
    first = dumped(tool_result_messages([done], api, media=media))
    again = dumped(tool_result_messages([done], api, media=media))
    report = placements(done, api, media)
    assert (checked, again == first) == (images, True)
    assert report[2] == ("note", "its PNG data is cut short (inside its 'IEND' chunk)")


def test_a_cut_image_never_reaches_the_wire_so_the_history_checks_clean() -> None:
    """What toolwire sends for a cut PNG is a note the fakes' rules pass; the same image
    sent by hand is what they (like the APIs) refuse."""
    done = returned("shot:", ImagePart(data=PNG[:8], media_type="image/png"))
    history = tool_result_messages([done], "anthropic")
    turn: list[Any] = [
        {"role": "user", "content": "shoot"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "call_1", "name": "shot", "input": {}}],
        },
        *history,
    ]
    assert check_history(turn, "anthropic") == []
    by_hand = [
        *turn[:2],
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
                                "data": "iVBORw0KGgo=",
                            },
                        }
                    ],
                }
            ],
        },
    ]
    assert [p.message for p in check_history(by_hand, "anthropic")] == snapshot(
        [
            "messages[2] (user) has image bytes that do not decode: its PNG data is cut short (it ends before its IEND chunk) (the live API answers 400)"
        ]
    )
