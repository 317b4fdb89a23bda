"""The size limits of images and files above Anthropic's 5 MB, at their boundaries
(issue 24, item 27): OpenAI takes images of up to 20 MB and files of up to 32 MB on
both its APIs, Gemini inline data of up to 20 MB. Exactly the limit is sent; one byte
more is noted, with the reason in the media report."""

from __future__ import annotations

import pytest

from tests.images import png
from tests.test_media_placement import placements, returned
from toolwire._api import Api
from toolwire.core import FilePart, ImagePart

MB = 1024 * 1024
PDF_HEAD = b"%PDF-1.7\n"


def image_of(size: int) -> ImagePart:
    """A whole PNG of exactly `size` bytes."""
    padding = size - len(png()) - 12  # a chunk's length, type and CRC
    image = png(padding=padding)
    assert len(image) == size
    return ImagePart(data=image, media_type="image/png")


def pdf_of(size: int) -> FilePart:
    return FilePart(data=PDF_HEAD + bytes(size - len(PDF_HEAD)), media_type="application/pdf")


OPENAI: list[Api] = ["chat.completions", "responses"]
SENT = {"chat.completions": "message", "responses": "native"}


@pytest.mark.parametrize("api", OPENAI)
def test_openai_takes_images_of_up_to_20_mb(api: Api) -> None:
    at_limit, over = returned(image_of(20 * MB)), returned(image_of(20 * MB + 1))
    assert placements(at_limit, api)[0][0] == SENT[api]
    assert placements(over, api) == [("note", "OpenAI takes images of up to 20 MB")]


@pytest.mark.parametrize("api", OPENAI)
def test_openai_takes_files_of_up_to_32_mb(api: Api) -> None:
    at_limit, over = returned(pdf_of(32 * MB)), returned(pdf_of(32 * MB + 1))
    assert placements(at_limit, api)[0][0] == SENT[api]
    assert placements(over, api) == [("note", "OpenAI takes files of up to 32 MB")]


def test_gemini_takes_inline_data_of_up_to_20_mb() -> None:
    reason = (
        "Gemini takes inline data of up to 20 MB; upload larger files with the Files API "
        "and return the file's URI as file_id"
    )
    for make in (image_of, pdf_of):
        at_limit, over = returned(make(20 * MB)), returned(make(20 * MB + 1))
        assert placements(at_limit, "gemini") == [("native", "")]
        assert placements(over, "gemini") == [("note", reason)]
