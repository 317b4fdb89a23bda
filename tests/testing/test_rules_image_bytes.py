"""`media_problems` reads inline images' bytes, as every live API does: bytes of another
type than their label, or no image at all, and Anthropic's 5 MB of base64 per image."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from inline_snapshot import snapshot

from tests.images import GIF, JPEG, PNG, WEBP
from toolwire.core import Api
from toolwire.testing import HistoryProblem
from toolwire.testing._kits import kit

PAGE = b"<!doctype html><h1>404 Not Found</h1>"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def media_problems(history: list[dict[str, Any]], api: Api) -> list[HistoryProblem]:
    """The media rules of `api`, as its fake and `check_history` run them."""
    return kit(api).media_problems(history)


def _history(api: Api, media_type: str, data: bytes) -> list[dict[str, Any]]:
    """A user turn holding one inline image, as `api` carries it."""
    url = f"data:{media_type};base64,{_b64(data)}"
    if api == "chat.completions":
        return [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}]
    if api == "responses":
        part = {"type": "input_image", "image_url": url, "detail": "auto"}
        return [{"role": "user", "content": [part]}]
    if api == "anthropic":
        source = {"type": "base64", "media_type": media_type, "data": _b64(data)}
        return [{"role": "user", "content": [{"type": "image", "source": source}]}]
    inline = {"mime_type": media_type, "data": base64.urlsafe_b64encode(data).decode()}
    return [{"role": "user", "parts": [{"inline_data": inline}]}]


APIS: list[Api] = ["chat.completions", "responses", "anthropic", "gemini"]
IMAGES = [("image/png", PNG), ("image/jpeg", JPEG), ("image/gif", GIF), ("image/webp", WEBP)]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(("media_type", "data"), IMAGES)
def test_images_that_are_what_they_say_pass(api: Api, media_type: str, data: bytes) -> None:
    if api == "gemini" and media_type == "image/gif":
        return  # Gemini reads no gif at all: its own rule, tested with the others
    assert media_problems(_history(api, media_type, data), api) == []


@pytest.mark.parametrize("api", APIS)
def test_bytes_of_another_type_or_none_are_named(api: Api) -> None:
    found = [
        [p.message for p in media_problems(_history(api, "image/jpeg", data), api)]
        for data in (PNG, PAGE)
    ]
    where = {
        "chat.completions": "messages[0] (user) has ",
        "responses": "input[0] (user) has ",
        "anthropic": "messages[0] (user) has ",
        "gemini": "contents[0] (user) has ",
    }[api]
    said = "(the live API answers 400: it reads the bytes)"
    assert found == [
        [f"{where}image bytes labelled 'image/jpeg' that are a png image {said}"],
        [
            f"{where}image bytes labelled 'image/jpeg' that are no png, jpeg, gif or webp image {said}"
        ],  # fmt: skip
    ]


def test_anthropic_counts_5_mb_of_base64_per_image() -> None:
    largest = PNG + b"\x00" * (5 * 1024 * 1024 // 4 * 3 - len(PNG))
    assert media_problems(_history("anthropic", "image/png", largest), "anthropic") == []
    over = [p.message for p in media_problems(_history("anthropic", "image/png", largest + b"\x00"), "anthropic")]  # fmt: skip
    assert over == snapshot(
        [
            "messages[0] (user) has an image of 5,242,884 characters of base64; Anthropic takes at most 5,242,880 (5 MB, counted in base64)"
        ]
    )


CUT_IMAGES = [
    ("image/png", PNG[:8], "its PNG data is cut short (it ends before its IEND chunk)"),
    (
        "image/png",
        PNG[:29] + bytes([PNG[29] ^ 1]) + PNG[30:],
        "its PNG 'IHDR' chunk fails its CRC check (the file is corrupt)",
    ),
    ("image/jpeg", JPEG[:-2], "its JPEG data is cut short (it has no end-of-image marker)"),
    ("image/gif", GIF[:-1], "its GIF data is cut short (it has no trailer)"),
    ("image/webp", WEBP[:-4], "its WebP data is cut short (shorter than its RIFF header says)"),
]


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(("media_type", "data", "why"), CUT_IMAGES)
def test_images_cut_short_or_corrupt_are_named(
    api: Api, media_type: str, data: bytes, why: str
) -> None:
    """The live APIs answer 400 to an image they cannot decode; so do the fakes."""
    if api == "gemini" and media_type == "image/gif":
        return  # Gemini reads no gif at all
    found = [p.message for p in media_problems(_history(api, media_type, data), api)]
    assert len(found) == 1
    assert found[0].endswith(f"image bytes that do not decode: {why} (the live API answers 400)")
