"""Chat Completions result rendering: one `role="tool"` message per call. No SDK import.

Tool messages take text only, so a result's images and files go in one user message
right after the turn's tool messages (`attachments`), and the tool message says they
follow. Audio and video reach the model nowhere on this API (it answers 400): the
result's text carries a note instead, as it does for an image of a type OpenAI does not
take (heic, heif). A `data:` URL goes as the bytes it holds (a base64 `data:` URL, a
file's `file_data`), with the checks bytes get.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..._media import (
    MediaPlacement,
    Placement,
    attachments_line,
    data_url,
    image_bytes_problem,
    image_type_outside,
    inline,
    media_parts,
    note_for,
)
from ..._parts import FilePart, ImagePart, MediaPart, media_kind, media_type_of

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletionContentPartParam,
        ChatCompletionToolMessageParam,
        ChatCompletionUserMessageParam,
    )

    from ..._result import ToolCallResult

__all__ = ["OPENAI_IMAGE_TYPES", "attachments", "place", "tool_message"]

OPENAI_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
OPENAI_MAX_IMAGE_BYTES = 20 * 1024 * 1024
OPENAI_MAX_FILE_BYTES = 32 * 1024 * 1024


def place(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
    """Where a part goes on Chat Completions: a user message after the tool messages,
    or a note where the API takes it nowhere."""
    part = inline(part)
    kind = media_kind(media_type_of(part))
    if kind in ("audio", "video"):
        return "note", f"the OpenAI APIs take no {kind} next to tool results (they answer 400)"
    if isinstance(part, ImagePart):
        if part.file_id is not None:
            return "note", (
                "Chat Completions takes images as data or a URL, not as an uploaded file id "
                "(the Responses API does)"
            )
        outside = image_type_outside(part, OPENAI_IMAGE_TYPES)
        if outside is not None:
            return "note", f"OpenAI takes png, jpeg, gif and webp images, not {outside}"
        unreadable = image_bytes_problem(part)  # OpenAI answers 400: "unsupported image"
        if unreadable:
            return "note", unreadable
        if part.data is not None and len(part.data) > OPENAI_MAX_IMAGE_BYTES:
            return "note", "OpenAI takes images of up to 20 MB"
    else:
        if part.url is not None:
            return "note", (
                "Chat Completions takes files as data or an uploaded file id, not a URL (the "
                "Responses API takes a file_url)"
            )
        if part.data is not None and len(part.data) > OPENAI_MAX_FILE_BYTES:
            return "note", "OpenAI takes files of up to 32 MB"
    return "message", "Chat Completions tool messages take text only"


def tool_message(result: ToolCallResult[Any]) -> ChatCompletionToolMessageParam:
    """The tool message answering `result`'s call (the API has no error flag). Its images
    and files are not in it: `tool_result_messages` puts them in the user message after
    the turn's tool messages, and this message's text says so."""
    if not result.result_parts:
        content = result.result_content
    else:
        lines = [result.result_content] if result.result_content else []
        moved = 0
        for part in map(inline, media_parts(result)):
            placement, reason = place(part, "message")
            if placement == "note":
                lines.append(note_for(part, reason))
            else:
                moved += 1
        if moved:
            lines.append(attachments_line(moved))
        content = "\n".join(lines)
    return {"role": "tool", "tool_call_id": result.call_id, "content": content}


def attachments(results: Sequence[ToolCallResult[Any]]) -> list[ChatCompletionUserMessageParam]:
    """The user message holding every delivered image and file of the turn's results,
    each result's introduced by its tool and call id; none when there are none."""
    content: list[ChatCompletionContentPartParam] = []
    for result in results:
        parts = map(inline, media_parts(result))
        delivered = [p for p in parts if place(p, "message")[0] == "message"]
        if not delivered:
            continue
        content.append({"type": "text", "text": f"From {result.name} (call {result.call_id}):"})
        content.extend(_content_part(part) for part in delivered)
    return [{"role": "user", "content": content}] if content else []


def _content_part(part: MediaPart) -> ChatCompletionContentPartParam:
    part = inline(part)
    if isinstance(part, ImagePart):
        url = part.url if part.url is not None else data_url(part)
        return {"type": "image_url", "image_url": {"url": url}}
    if part.file_id is not None:
        return {"type": "file", "file": {"file_id": part.file_id}}
    assert part.data is not None
    if (part.media_type or "").startswith("text/"):
        return {"type": "text", "text": _document_text(part)}
    return {"type": "file", "file": {"file_data": data_url(part), "filename": _filename(part)}}


def _document_text(part: FilePart) -> str:
    assert part.data is not None
    text = part.data.decode("utf-8", errors="replace")
    return f"{part.filename}:\n{text}" if part.filename else text


def _filename(part: FilePart) -> str:
    if part.filename:
        return part.filename
    return "document.pdf" if part.media_type == "application/pdf" else "file"
