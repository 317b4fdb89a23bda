"""What the Messages API answers 400 to in the images and files of user messages.

- an image of a type other than jpeg, png, gif, webp, or of more than 5 MB of base64
  ("image exceeds 5 MB maximum"), or whose inline bytes are not what their label says
  (`_rules_media`);
- a base64 document that is not a PDF;
- a content block type the API does not define for user content;
- an image or document whose URL source is a `data:` URL (URL sources are fetched:
  inline bytes go in a base64 source);
- a base64 image with a side over 8000 px, or over 2000 px when the request holds more
  than 20 images (every image block of the request counts, inside tool results too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._image_bytes import ImageHeader
from ..._parts import is_data_url
from .._rules import HistoryProblem, blocks_of, field, text_field
from .._rules_media import image_bytes_problem, inline_image

__all__ = ["anthropic_media_problems"]

_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_USER_BLOCKS = frozenset(
    {
        "text",
        "image",
        "document",
        "search_result",
        "tool_result",
        "tool_reference",
        "container_upload",
    }
)
_MAX_IMAGE_BASE64 = 5 * 1024 * 1024
"""Characters of base64 per image ("image exceeds 5 MB maximum: 5333336 bytes > 5242880
bytes": the API counts the base64 text)."""
_MAX_SIDE = 8000
_MANY_IMAGES = 20
"""Past this many images in a request, each side may be at most `_MANY_IMAGES_MAX_SIDE`."""
_MANY_IMAGES_MAX_SIDE = 2000


def anthropic_media_problems(
    messages: Sequence[Mapping[str, Any]], *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `messages` the Messages API rejects (no rule depends on the
    `model`)."""
    blocks = [
        (index, block)
        for index, message in enumerate(messages)
        if text_field(message, "role") == "user"
        for outer in blocks_of(message, "content")
        for block in (
            [outer, *blocks_of(outer, "content")]
            if text_field(outer, "type") == "tool_result"
            else [outer]
        )
    ]
    images = sum(text_field(block, "type") == "image" for _, block in blocks)
    return [
        HistoryProblem(index, f"messages[{index}] (user) has {problem}")
        for index, block in blocks
        if (problem := _block_problem(block, images))
    ]


def _block_problem(block: Mapping[str, Any], images: int) -> str:
    """What the API says of one block, in a request of `images` image blocks."""
    kind = text_field(block, "type")
    source = field(block, "source")
    source_type = text_field(source, "type")
    media_type = text_field(source, "media_type")
    if kind not in _USER_BLOCKS:
        return f"a {kind!r} block, which the Messages API does not take in user content"
    if kind == "image" and source_type == "base64":
        if media_type not in _IMAGE_TYPES:
            return f"an image of type {media_type!r}; Anthropic takes jpeg, png, gif and webp"
        data = text_field(source, "data")
        if len(data) > _MAX_IMAGE_BASE64:
            return (
                f"an image of {len(data):,} characters of base64; Anthropic takes at most "
                f"{_MAX_IMAGE_BASE64:,} (5 MB, counted in base64)"
            )
        unreadable = image_bytes_problem(media_type, data)
        if unreadable:
            return unreadable
        header = inline_image(data)
        if isinstance(header, ImageHeader):
            return _side_problem(header, images)
    if kind == "document" and source_type == "base64" and media_type != "application/pdf":
        return (
            f"a base64 document of type {media_type!r}; Anthropic takes PDFs as base64 and "
            "plain text as a text source"
        )
    if kind == "search_result":
        return _search_result_problem(block)
    if kind in ("image", "document") and is_data_url(text_field(source, "url")):
        return (
            f"{'an image' if kind == 'image' else 'a document'} whose URL source is a data: "
            "URL; Anthropic fetches URL sources itself: send the bytes as a base64 source"
        )
    return ""


def _search_result_problem(block: Mapping[str, Any]) -> str:
    """What the API says of a `search_result` block missing what it requires: a source,
    a title, and text blocks as its content."""
    missing = [name for name in ("source", "title") if not text_field(block, name)]
    if missing:
        return f"a search_result block without {' or '.join(missing)} (both are required)"
    content = blocks_of(block, "content")
    if not content or any(text_field(part, "type") != "text" for part in content):
        return "a search_result block whose content is not a non-empty list of text blocks"
    return ""


def _side_problem(header: ImageHeader, images: int) -> str:
    """What the API says of an image this size in a request of `images` images."""
    side = max(header.width, header.height)
    if side > _MAX_SIDE:
        limit = f"max allowed size: {_MAX_SIDE} pixels"
    elif images > _MANY_IMAGES and side > _MANY_IMAGES_MAX_SIDE:
        limit = f"max allowed size for many-image requests: {_MANY_IMAGES_MAX_SIDE} pixels"
    else:
        return ""
    return (
        f"an image of {header.width}x{header.height} pixels in a request of {images} "
        f'image(s): the live API answers 400 ("At least one of the image dimensions exceed '
        f'{limit}"); scale it down, or send fewer images'
    )
