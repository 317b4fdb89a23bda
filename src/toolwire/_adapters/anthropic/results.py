"""Anthropic result rendering: one `tool_result` block per call. No SDK import.

`tool_result.content` takes text, image and document blocks, so a result's images and
files go inside it, in the order the handler returned them; a `ToolReference` becomes a
`tool_reference` block there (loading a deferred tool), a `SearchResultPart` a
`search_result` block (which the model may cite). With `media="message"`
they go right after the tool_result blocks, in the same user message (the results
must come first). Audio and video reach the model nowhere on this API: a note takes
their place, as it does for an image of a type Anthropic does not take (heic, heif).
A URL source is one Anthropic fetches: a `data:` URL goes as the bytes it holds (a
base64 image or PDF, a text document), with the checks bytes get.

Anthropic reads an inline image's bytes: it answers 400 to one sent as another type
than its bytes are, to bytes that are no image, and to more than 5 MB of base64. So an
image goes as the type its bytes are, and the others become notes; a document's size
counts as sent too (base64 for a PDF), against the 32 MB a request holds.

It also answers 400 to an image with a side over 8000 px, and over 2000 px once the
request holds more than 20 images. The sides are read from the image's header; the
images counted are those one answer sends (`media_rule`): the images of earlier turns
count on the API too, and only `check_history` sees them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..._image_bytes import ImageHeader
from ..._media import (
    MediaPlacement,
    Placement,
    Rule,
    attachments_intro,
    b64,
    b64_size,
    file_text,
    image_bytes_type,
    image_header,
    inline,
    laid_out,
    moved_media,
    text_bytes_problem,
)
from ..._parts import ImagePart, MediaPart, SearchResultPart, media_kind, media_type_of
from ..._references import ToolReference, references_text

if TYPE_CHECKING:
    from anthropic.types import (
        CacheControlEphemeralParam,
        DocumentBlockParam,
        ImageBlockParam,
        MessageParam,
        SearchResultBlockParam,
        TextBlockParam,
        ToolReferenceBlockParam,
        ToolResultBlockParam,
    )

    from ..._result import ToolCallResult

__all__ = [
    "answer_message",
    "attachment_blocks",
    "cache_control",
    "media_rule",
    "place",
    "tool_result_block",
]

ANTHROPIC_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
ANTHROPIC_MAX_IMAGE_BYTES = 5 * 1024 * 1024
"""Of base64 ("image exceeds 5 MB maximum: 5333336 bytes > 5242880 bytes")."""
ANTHROPIC_MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""What a whole request holds: no document sent larger fits."""
ANTHROPIC_MAX_IMAGE_SIDE = 8000
"""Pixels a side ("At least one of the image dimensions exceed max allowed size: 8000
pixels")."""
ANTHROPIC_MANY_IMAGES = 20
"""Past this many images in a request, each side may be at most
`ANTHROPIC_MANY_IMAGES_MAX_SIDE`."""
ANTHROPIC_MANY_IMAGES_MAX_SIDE = 2000
"""("... exceed max allowed size for many-image requests: 2000 pixels")."""


def cache_control(ttl: str | Literal[True]) -> CacheControlEphemeralParam:
    """The `cache_control` of a breakpoint with lifetime `ttl` (True: the API's default,
    five minutes)."""
    if ttl is True:
        return {"type": "ephemeral"}
    if ttl == "5m" or ttl == "1h":
        return {"type": "ephemeral", "ttl": ttl}
    raise ValueError(
        f"cache_breakpoint={ttl!r}: Anthropic's cache lives '5m' (the default: pass True) or '1h'."
    )


def media_rule(results: Sequence[ToolCallResult[Any]]) -> Rule:
    """The placement of each part of `results`, answered together in one user message:
    `place`, with a side limit of 2000 px instead of 8000 when the answer sends more
    than 20 images (the API's limit for a request of that many). Counting reads the
    images only when there are more than 20 of them."""
    images = [
        part
        for result in results
        if result.result_parts  # a text result (the common case) has none
        for part in result.result_parts
        if isinstance(part, ImagePart)
    ]
    if len(images) <= ANTHROPIC_MANY_IMAGES:
        return place
    sent = sum(place(part, "native")[0] != "note" for part in images)
    if sent <= ANTHROPIC_MANY_IMAGES:
        return place

    def place_among_many(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
        return place(part, media, many_images=sent)

    return place_among_many


def place(part: MediaPart, media: MediaPlacement, *, many_images: int = 0) -> tuple[Placement, str]:
    """Where a part goes on Anthropic: inside the tool_result, after the results in the
    same user message (`media="message"`), or a note where the API takes it nowhere.
    `many_images`: how many images the request sends, when more than 20 (each image's
    sides are then held to 2000 px)."""
    part = inline(part)
    kind = media_kind(media_type_of(part))
    if kind in ("audio", "video"):
        return "note", f"the Anthropic Messages API takes no {kind}"
    if isinstance(part, ImagePart):
        problem = _image_problem(part, many_images)
    else:
        problem = _document_problem(part)
    if problem:
        return "note", problem
    if media == "message":
        return "message", "media='message' was asked for"
    return "native", ""


def _image_problem(part: ImagePart, many_images: int) -> str:
    """Why Anthropic cannot take this image ("" when it can), judged by its bytes when
    it has them; `many_images` as in `place`."""
    media_type = _image_type(part)
    if media_kind(media_type) == "image" and media_type not in ANTHROPIC_IMAGE_TYPES:
        return f"Anthropic takes jpeg, png, gif and webp images, not {media_type}"
    header = image_header(part)
    if not isinstance(header, ImageHeader):
        return header or ""
    assert part.data is not None
    if b64_size(part.data) > ANTHROPIC_MAX_IMAGE_BYTES:
        return "Anthropic takes images of up to 5 MB"
    return _side_problem(header, many_images)


def _side_problem(header: ImageHeader, many_images: int) -> str:
    """Why Anthropic refuses an image of this size ("" when it takes it)."""
    size = f"this one is {header.width}x{header.height} px"
    if max(header.width, header.height) > ANTHROPIC_MAX_IMAGE_SIDE:
        return f"Anthropic takes images of at most {ANTHROPIC_MAX_IMAGE_SIDE} px a side; {size}"
    if many_images and max(header.width, header.height) > ANTHROPIC_MANY_IMAGES_MAX_SIDE:
        return (
            f"Anthropic takes images of at most {ANTHROPIC_MANY_IMAGES_MAX_SIDE} px a side in "
            f"a request of more than {ANTHROPIC_MANY_IMAGES} images (this answer has "
            f"{many_images}); {size}"
        )
    return ""


def _document_problem(part: MediaPart) -> str:
    """Why Anthropic cannot take this document ("" when it can)."""
    media_type = media_type_of(part)
    if part.url is not None and media_type is not None and media_type != "application/pdf":
        return f"Anthropic takes documents by URL only as PDFs, not {media_type}"
    if part.data is None:
        return ""
    unreadable = text_bytes_problem(part)
    if unreadable:
        return unreadable
    size = b64_size(part.data) if media_type == "application/pdf" else len(part.data)
    if size > ANTHROPIC_MAX_DOCUMENT_BYTES:
        return "Anthropic takes documents of up to 32 MB"
    return ""


def _image_type(part: ImagePart) -> str | None:
    """The type an image goes as: what its bytes are, else the type given (or read off
    its URL)."""
    return image_bytes_type(part) or media_type_of(part)


def answer_message(blocks: list[Any]) -> list[MessageParam]:
    """The one user message answering a turn: its `tool_result` blocks, in call order
    (then, with `media="message"`, the blocks placed after them)."""
    return [{"role": "user", "content": blocks}]


def tool_result_block(
    result: ToolCallResult[Any], media: MediaPlacement = "native", rule: Rule | None = None
) -> ToolResultBlockParam:
    """The `tool_result` block answering `result`, with `is_error: true` on any failure,
    its images and documents inside it (with `media="message"`, they follow the results
    in the same user message and this block's text says so), placed by `rule` (the
    `media_rule` of the answer it is part of; by default of `result` alone)."""
    content: Any = result.result_content  # a text result's (the common case)
    if result.result_parts:
        content = laid_out(
            result,
            media,
            rule or media_rule([result]),
            _text_block,
            media_block,
            _reference_block,
            _search_result_block,
        )
    block: ToolResultBlockParam = {
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": content,
    }
    if result.fail_reason is not None:
        block["is_error"] = True
    return block


def _text_block(text: str) -> TextBlockParam:
    return {"type": "text", "text": text}


def _search_result_block(part: SearchResultPart) -> SearchResultBlockParam:
    """A `search_result` block: its passages as text blocks, citations as asked."""
    block: SearchResultBlockParam = {
        "type": "search_result",
        "source": part.source,
        "title": part.title,
        "content": [_text_block(passage) for passage in part.passages],
    }
    if part.citations is not None:
        block["citations"] = {"enabled": part.citations}
    return block


def _reference_block(reference: ToolReference) -> ToolReferenceBlockParam | TextBlockParam:
    """A `tool_reference` block loading a deferred tool; a tool that is not deferred
    (the API refuses a reference to it) is named in text instead."""
    if reference.deferred:
        return {"type": "tool_reference", "tool_name": reference.name}
    return _text_block(references_text([reference]))


def attachment_blocks(
    results: Sequence[ToolCallResult[Any]], media: MediaPlacement, rule: Rule
) -> list[TextBlockParam | ImageBlockParam | DocumentBlockParam]:
    """The blocks that follow the tool_result blocks (with `media="message"`), each
    result's introduced by its tool and call id, placed by `rule` (`media_rule`)."""
    blocks: list[TextBlockParam | ImageBlockParam | DocumentBlockParam] = []
    for _, result, moved in moved_media(results, media, rule):
        blocks.append(_text_block(attachments_intro(result)))
        blocks.extend(media_block(part) for part in moved)
    return blocks


def media_block(part: MediaPart) -> ImageBlockParam | DocumentBlockParam:
    """An image or document block for a part Anthropic takes."""
    part = inline(part)
    if isinstance(part, ImagePart):
        if part.data is not None:
            media_type: Any = _image_type(part)
            return {
                "type": "image",
                "source": {"type": "base64", "media_type": media_type, "data": b64(part.data)},
            }
        if part.url is not None:
            return {"type": "image", "source": {"type": "url", "url": part.url}}
        assert part.file_id is not None
        return {"type": "image", "source": {"type": "file", "file_id": part.file_id}}
    document: DocumentBlockParam
    if part.data is not None and part.media_type == "application/pdf":
        document = {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": b64(part.data)},
        }
    elif part.data is not None:  # a text document
        text = file_text(part)
        document = {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": text},
        }
    elif part.url is not None:
        document = {"type": "document", "source": {"type": "url", "url": part.url}}
    else:
        assert part.file_id is not None
        document = {"type": "document", "source": {"type": "file", "file_id": part.file_id}}
    if part.filename:
        document["title"] = part.filename
    return document
