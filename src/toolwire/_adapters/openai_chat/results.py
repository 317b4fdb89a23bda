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
    attachments_intro,
    data_url,
    inline,
    moved_media,
    text_with_notes,
)
from ..._parts import ImagePart, MediaPart
from .._openai import document_text, filename, openai_media_note

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletionContentPartParam,
        ChatCompletionToolMessageParam,
        ChatCompletionUserMessageParam,
    )
    from openai.types.chat.chat_completion_content_part_image_param import ImageURL

    from ..._result import ToolCallResult

__all__ = ["attachments", "place", "tool_message"]


def place(part: MediaPart, media: MediaPlacement) -> tuple[Placement, str]:
    """Where a part goes on Chat Completions: a user message after the tool messages,
    or a note where the API takes it nowhere."""
    note = openai_media_note(inline(part), _refused_source)
    if note:
        return "note", note
    return "message", "Chat Completions tool messages take text only"


def _refused_source(part: MediaPart) -> str:
    """The sources Chat Completions takes no media from (the Responses API does)."""
    if isinstance(part, ImagePart):
        if part.file_id is not None:
            return (
                "Chat Completions takes images as data or a URL, not as an uploaded file id "
                "(the Responses API does)"
            )
    elif part.url is not None:
        return (
            "Chat Completions takes files as data or an uploaded file id, not a URL (the "
            "Responses API takes a file_url)"
        )
    return ""


def tool_message(result: ToolCallResult[Any]) -> ChatCompletionToolMessageParam:
    """The tool message answering `result`'s call (the API has no error flag). Its images
    and files are not in it: `tool_result_messages` puts them in the user message after
    the turn's tool messages, and this message's text says so."""
    content = result.result_content
    if result.result_parts:
        content = text_with_notes(result, "message", place)[0]
    return {"role": "tool", "tool_call_id": result.call_id, "content": content}


def attachments(results: Sequence[ToolCallResult[Any]]) -> list[ChatCompletionUserMessageParam]:
    """The user message holding every delivered image and file of the turn's results,
    each result's introduced by its tool and call id; none when there are none."""
    content: list[ChatCompletionContentPartParam] = []
    for _, result, delivered in moved_media(results, "message", place):
        content.append({"type": "text", "text": attachments_intro(result)})
        content.extend(_content_part(part) for part in delivered)
    return [{"role": "user", "content": content}] if content else []


def _content_part(part: MediaPart) -> ChatCompletionContentPartParam:
    if isinstance(part, ImagePart):
        image: ImageURL = {"url": part.url if part.url is not None else data_url(part)}
        if part.detail is not None:
            image["detail"] = part.detail
        return {"type": "image_url", "image_url": image}
    if part.file_id is not None:
        return {"type": "file", "file": {"file_id": part.file_id}}
    assert part.data is not None
    if (part.media_type or "").startswith("text/"):
        return {"type": "text", "text": document_text(part)}
    return {"type": "file", "file": {"file_data": data_url(part), "filename": filename(part)}}
