"""What the Messages API answers 400 to in the images and files of user messages.

- an image of a type other than jpeg, png, gif, webp, or of more than 5 MB of base64
  ("image exceeds 5 MB maximum"), or whose inline bytes are not what their label says
  (`_rules_media`);
- a base64 document that is not a PDF;
- a content block type the API does not define for user content;
- an image or document whose URL source is a `data:` URL (URL sources are fetched:
  inline bytes go in a base64 source).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._parts import is_data_url
from .._rules import HistoryProblem, blocks_of, field, text_field
from .._rules_media import image_bytes_problem

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


def anthropic_media_problems(
    messages: Sequence[Mapping[str, Any]], *, model: str | None = None
) -> list[HistoryProblem]:
    """Every media shape in `messages` the Messages API rejects (no rule depends on the
    `model`)."""
    problems: list[HistoryProblem] = []
    for index, message in enumerate(messages):
        if text_field(message, "role") != "user":
            continue
        for block in blocks_of(message, "content"):
            found = [_block_problem(block)]
            if text_field(block, "type") == "tool_result":
                found += [_block_problem(inner) for inner in blocks_of(block, "content")]
            problems += [
                HistoryProblem(index, f"messages[{index}] (user) has {p}") for p in found if p
            ]
    return problems


def _block_problem(block: Mapping[str, Any]) -> str:
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
    if kind == "document" and source_type == "base64" and media_type != "application/pdf":
        return (
            f"a base64 document of type {media_type!r}; Anthropic takes PDFs as base64 and "
            "plain text as a text source"
        )
    if kind in ("image", "document") and is_data_url(text_field(source, "url")):
        return (
            f"{'an image' if kind == 'image' else 'a document'} whose URL source is a data: "
            "URL; Anthropic fetches URL sources itself: send the bytes as a base64 source"
        )
    return ""
